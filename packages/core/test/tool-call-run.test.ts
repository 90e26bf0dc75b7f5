import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InMemorySessionStore, ReActAgent, Runner, tool, type ToolContext } from '@replan/core';
import { toolCallRun } from '@replan/core/agent-kit';
import { ScriptedModel, callTools } from '@replan/core/testing';

describe('toolCallRun: a tool recording events of its own', () => {
  it('stores them durably while the tool runs; inner calls (meta.codeCall) reach no later model request', async () => {
    const store = new InMemorySessionStore();
    const seen: number[] = [];
    const outer = tool({
      name: 'outer',
      description: 'Makes one inner call.',
      parameters: z.object({}),
      execute: async (_args, ctx) => {
        const run = toolCallRun(ctx);
        if (!run) throw new Error('no run');
        const meta = { codeCall: { id: ctx.toolCallId, index: 0 } };
        await run.record({
          message: { role: 'assistant', content: [{ type: 'tool_call', id: `${ctx.toolCallId}#0`, name: 'x', args: {} }] },
          meta,
        });
        // Durable before the tool goes on: the store has it now.
        seen.push((await store.get({ appName: 'kit', userId: 'u', id: 's' }))?.events.filter((e) => e.meta?.codeCall).length ?? 0);
        await run.record({
          message: { role: 'tool', content: [{ type: 'tool_result', toolCallId: `${ctx.toolCallId}#0`, name: 'x', output: 1 }] },
          meta,
        });
        return 'outer done';
      },
    });
    const model = new ScriptedModel({ responses: [callTools({ name: 'outer', id: 'c1' }), 'first answer', 'second answer'] });
    const runner = new Runner({ agent: new ReActAgent({ name: 'agent', model, tools: [outer] }), appName: 'kit', sessionStore: store });
    expect((await runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result()).status).toBe('completed');
    expect(seen).toEqual([1]);
    // A later run rebuilds its context from the log: the inner pair is not in it.
    await runner.run({ userId: 'u', sessionId: 's', input: 'again' }).result();
    const request = JSON.stringify(model.requests[2]?.messages);
    expect(request).toContain('outer done');
    expect(request).not.toContain('c1#0');
  });

  it('is undefined for a ToolContext built outside a Runner', () => {
    expect(toolCallRun({ toolCallId: 'x' } as ToolContext)).toBeUndefined();
  });
});
