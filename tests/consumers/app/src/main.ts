// A small application as a user writes it against the installed packages: a plan–execute agent on
// scripted models (no network), plus the other packages' entry points so their types and runtime
// dependencies (openai, pg) are checked too. Prints the run's result as one JSON line.
import { z } from 'zod';
import { Runner, tool, type ChatModel, type RunResult, type SessionStore } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { createExecutor, createPlanExecuteAgent, createPlanner, createReplanner } from '@replan/planexecute';
import { OpenAIChatModel } from '@replan/providers';
import { PostgresSessionStore } from '@replan/postgres';

const add = tool({
  name: 'add',
  description: 'Adds two numbers.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

const agent = createPlanExecuteAgent({
  planner: createPlanner({
    model: new ScriptedModel({ responses: [callTools({ name: 'plan', args: { steps: ['add 2 and 3'] } })] }),
  }),
  executor: createExecutor({
    model: new ScriptedModel({ responses: [callTools({ name: 'add', args: { a: 2, b: 3 } }), '2 + 3 = 5'] }),
    tools: [add],
  }),
  replanner: createReplanner({
    model: new ScriptedModel({ responses: [callTools({ name: 'respond', args: { response: 'The sum is 5.' } })] }),
  }),
});

// Constructed, never called: no request leaves this process.
const remote: ChatModel = new OpenAIChatModel({ model: 'gpt-4o-mini', apiKey: 'unused', baseURL: 'http://127.0.0.1:9/v1' });
const durable: (options: { connectionString: string }) => SessionStore = (options) => new PostgresSessionStore(options);

if (remote.id !== 'gpt-4o-mini' || typeof durable !== 'function') throw new Error('the other packages did not load');

const run = new Runner({ agent, appName: 'consumer' }).run({ userId: 'u1', input: 'What is 2 + 3?' });
for await (const event of run) if (event.error) console.error(event.error);
const result: RunResult = await run.result();
console.log(JSON.stringify({ status: result.status, output: result.output }));
