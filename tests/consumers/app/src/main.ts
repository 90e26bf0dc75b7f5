// A small application as a user writes it against the installed packages: a plan–execute agent on
// scripted models (no network), plus the other packages' entry points so their types and runtime
// dependencies (openai, pg, @opentelemetry/api, ai) are checked too; every package is imported. Prints the run's result as one JSON line.
import { z } from 'zod';
import { ConfigurationError, ReActAgent, Runner, tool, type ChatModel, type RunResult, type SessionStore } from '@replan/core';
import { aiSdkModel } from '@replan/ai-sdk';
import { McpError, mcpTools } from '@replan/mcp';
import { dbosRuns } from '@replan/dbos';
import { a2aAgentTool, a2aServer } from '@replan/a2a';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { createExecutor, createPlanExecuteAgent, createPlanner, createReplanner } from '@replan/planexecute';
import { OpenAIChatModel } from '@replan/providers';
import { PostgresSessionStore } from '@replan/postgres';
import { openTelemetry } from '@replan/otel';
import { renderRun } from '@replan/planexecute/terminal';
import { defineEvalSet, renderJUnit, runEval } from '@replan/eval';
import { serveStudio } from '@replan/studio';
import { InMemoryMemoryStore } from '@replan/memory';
import { codeTool } from '@replan/code';

const add = tool({
  name: 'add',
  description: 'Adds two numbers.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

const makeAgent = () =>
  createPlanExecuteAgent({
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

// Constructed, never launched: the optional DBOS SDK is imported only by launch().
const runs = dbosRuns({ runners: new Runner({ agent: makeAgent(), appName: 'consumer-dbos' }) });

if (remote.id !== 'gpt-4o-mini' || typeof durable !== 'function' || typeof serveStudio !== 'function' || typeof runs.launch !== 'function')
  throw new Error('the other packages did not load');
// A2A's SDK is an optional peer too, loaded on first use: building a tool needs nothing yet, and listening
// without the SDK says what to install (with it, the server listens on 127.0.0.1 and closes).
if (a2aAgentTool('http://127.0.0.1:9', { name: 'remote' }).name !== 'remote') throw new Error('@replan/a2a did not load');
const a2a = await a2aServer({ runner: new Runner({ agent: makeAgent(), appName: 'consumer-a2a' }) })
  .listen()
  .then(
    (endpoint) => endpoint.close().then(() => 'sdk installed'),
    (error: unknown) =>
      error instanceof ConfigurationError && error.message.includes('npm install @a2a-js/sdk')
        ? 'sdk not installed'
        : `unexpected: ${String(error)}`,
  );
if (a2a.startsWith('unexpected')) throw new Error(`@replan/a2a: ${a2a}`);

// Any AI SDK language model is a ChatModel: here a hand-written one (no provider package, no network),
// so the peers `ai` and `@ai-sdk/provider` are loaded and their types checked.
const aiModel = aiSdkModel({
  specificationVersion: 'v3',
  provider: 'local.chat',
  modelId: 'local-model',
  supportedUrls: {},
  doGenerate: async () => ({
    content: [{ type: 'text', text: 'from the AI SDK' }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: {
      inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 1, text: 1, reasoning: undefined },
    },
    warnings: [],
  }),
  doStream: async () => Promise.reject(new Error('the consumer app does not stream this model')),
});
const aiAnswer = await aiModel.generate({ messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] });
if (JSON.stringify(aiAnswer.message.content) !== '[{"type":"text","text":"from the AI SDK"}]') throw new Error('aiSdkModel did not answer');

// MCP is an optional peer: without @modelcontextprotocol/sdk, mcpTools says what to install and nothing
// else is affected; with it, a server that cannot start is named. (The command does not exist.)
const mcpError = await mcpTools({ stdio: { command: '/nonexistent/mcp-server' } }).then(
  () => undefined,
  (error: unknown) => error,
);
const mcp =
  mcpError instanceof ConfigurationError && mcpError.message.includes('npm install @modelcontextprotocol/sdk')
    ? 'sdk not installed'
    : mcpError instanceof McpError && mcpError.kind === 'connection'
      ? 'sdk installed'
      : `unexpected: ${String(mcpError)}`;

// With no tracer provider registered, @opentelemetry/api's no-op tracer takes the spans.
const observers = [openTelemetry()];
const run = new Runner({ agent: makeAgent(), appName: 'consumer', observers }).run({ userId: 'u1', input: 'What is 2 + 3?' });
// The terminal view is kept (not a TTY: plain lines) so that stdout holds only the JSON line.
let rendered = '';
const result: RunResult = await renderRun(run, { out: { write: (text: string) => (rendered += text) } });
if (!rendered.includes('The sum is 5.') || typeof result.cost !== 'number') throw new Error(`renderRun printed:\n${rendered}`);
// A code step: one program calls `add` twice in the QuickJS sandbox (its WASM loaded from the installed package).
const coder = new Runner({
  appName: 'consumer-code',
  agent: new ReActAgent({
    name: 'coder',
    model: new ScriptedModel({
      responses: [
        callTools({ name: 'run_code', args: { program: 'return await tools.add({ a: await tools.add({ a: 1, b: 2 }), b: 3 });' } }),
        'six',
      ],
    }),
    tools: [codeTool({ tools: [add] })],
  }),
});
const coded = await coder.run({ userId: 'u1', input: 'Add 1, 2 and 3.' }).result();
const codeEvents = (await coder.sessionStore.get({ appName: 'consumer-code', userId: 'u1', id: coded.sessionId }))?.events ?? [];
if (coded.status !== 'completed' || codeEvents.filter((e) => e.meta?.codeCall).length !== 4)
  throw new Error('the code step did not run its two calls');
// The same agent as an eval case (its scripted models are used up: a fresh agent per run).
const evalReport = await runEval({
  set: defineEvalSet({
    name: 'consumer',
    cases: [{ name: 'sum', input: 'What is 2 + 3?', expect: { status: 'completed', answer: /sum is 5/ } }],
  }),
  makeRunner: () => new Runner({ agent: makeAgent(), appName: 'consumer-eval' }),
});
if (!evalReport.pass || !renderJUnit(evalReport).includes('<testcase')) throw new Error('the eval of the consumer app did not pass');
// Memory: what one session stored, a later search finds (BM25 via minisearch, a runtime dependency).
const memories = new InMemoryMemoryStore();
await memories.put({ scope: { appName: 'consumer', userId: 'u1' }, kind: 'fact', text: 'The user prefers window seats.' });
const [hit] = await memories.search({ scope: { appName: 'consumer', userId: 'u1' }, query: 'window seat' });
if (!hit?.item.text.includes('window')) throw new Error('@replan/memory did not find what it stored');
console.log(JSON.stringify({ status: result.status, output: result.output, mcp }));
