import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InMemorySessionStore, ReActAgent, Runner, tool } from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';

describe('RunResult.toolCalls and the breakdown count the tools a run started', () => {
  it('counts each started call once, by agent path; a call waiting for approval counts when it runs, in the resume', async () => {
    let sent = 0;
    const lookup = tool({
      name: 'lookup',
      description: 'looks up',
      parameters: z.object({ q: z.string() }),
      execute: ({ q }) => `found ${q}`,
    });
    const send = tool({
      name: 'send',
      description: 'sends',
      parameters: z.object({}),
      needsApproval: true,
      execute: () => {
        sent++;
        return 'sent';
      },
    });
    const model = new ScriptedModel({
      respond: (request) => {
        const turns = request.messages.filter((m) => m.role === 'assistant').length;
        if (turns === 0) return callTools({ name: 'lookup', args: { q: 'a' } }, { name: 'lookup', args: { q: 'b' } });
        if (turns === 1) return callTools({ name: 'send', args: {}, id: 'send-1' });
        return 'done';
      },
    });
    const runner = new Runner({
      agent: new ReActAgent({ name: 'clerk', model, tools: [lookup, send] }),
      appName: 'c',
      sessionStore: new InMemorySessionStore(),
    });
    const first = await runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
    expect(first.status).toBe('interrupted');
    expect(first.toolCalls).toBe(2);
    expect(first.breakdown.byAgent.clerk).toMatchObject({ modelCalls: 2, toolCalls: 2 });
    const done = await runner.resume({ userId: 'u', sessionId: 's', approvals: { 'send-1:approval': true } }).result();
    expect(done.status).toBe('completed');
    expect(sent).toBe(1);
    // The two lookups answered before are not run, nor counted, again.
    expect(done.toolCalls).toBe(1);
    expect(done.breakdown.byAgent.clerk).toMatchObject({ modelCalls: 1, toolCalls: 1 });
  });

  it('an unknown tool or arguments that fail the schema start nothing: not counted', async () => {
    const lookup = tool({ name: 'lookup', description: 'looks up', parameters: z.object({ q: z.string() }), execute: ({ q }) => q });
    const model = new ScriptedModel({
      responses: [callTools({ name: 'nope', args: {} }, { name: 'lookup', args: { q: 1 } }), 'done'],
    });
    const result = await new Runner({ agent: new ReActAgent({ name: 'clerk', model, tools: [lookup] }), appName: 'c' })
      .run({ userId: 'u', input: 'go' })
      .result();
    expect(result.status).toBe('completed');
    expect(result.toolCalls).toBe(0);
    expect(result.breakdown.byAgent.clerk?.toolCalls).toBe(0);
  });
});
