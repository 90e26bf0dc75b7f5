import { describe, expect, it } from 'vitest';
import { ReActAgent, Runner, tool } from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';
import { z } from 'zod';

describe('ScriptedModel.requests', () => {
  it('records each request as it was sent, not the loop message list as it grew later', async () => {
    const model = new ScriptedModel({ responses: [callTools({ name: 'echo', args: { text: 'hi' } }), 'done'] });
    const echo = tool({ name: 'echo', description: 'Echoes.', parameters: z.object({ text: z.string() }), execute: ({ text }) => text });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model, tools: [echo] }), appName: 'app' });
    await runner.run({ userId: 'u', input: 'say hi' }).result();
    expect(model.requests).toHaveLength(2);
    // First call: the user message only. Second: it, the tool call and its result.
    expect(model.requests[0]?.messages.map((m) => m.role)).toEqual(['user']);
    expect(model.requests[1]?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  });
});
