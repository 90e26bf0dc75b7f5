import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ReActAgent, Runner, tool, SequentialAgent } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';

describe('smoke', () => {
  it('runs a ReAct loop with a tool', async () => {
    const add = tool({
      name: 'add',
      description: 'add',
      parameters: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }) => a + b,
    });
    const model = new ScriptedModel({ responses: [callTools({ name: 'add', args: { a: 1, b: 2 } }), 'It is 3.'] });
    const agent = new ReActAgent({ name: 'calc', model, tools: [add], instruction: 'Be brief.' });
    const runner = new Runner({ agent: new SequentialAgent({ name: 'root', subAgents: [agent] }), appName: 'app' });
    const run = runner.run({ userId: 'u', input: 'what is 1+2?' });
    const events = [];
    for await (const e of run) events.push(e);
    const result = await run.result();
    expect(result.status).toBe('completed');
    expect(result.output).toBe('It is 3.');
    expect(model.requests[1]?.messages.at(-1)?.content[0]).toMatchObject({ type: 'tool_result', output: 3 });
    const session = await runner.sessionStore.get({ appName: 'app', userId: 'u', id: result.sessionId });
    expect(session?.events.length).toBe(events.length);
  });
});
