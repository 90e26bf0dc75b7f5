import { describe, expect, it } from 'vitest';
import { builtInThinking, ConfigurationError, type Message, type ModelRequest, ReActAgent, Runner } from '@replan/core';
import { ScriptedModel, reply } from '@replan/core/testing';

/** The request the model gets and the answer the agent keeps, through builtInThinking alone. */
async function through(mw: ReturnType<typeof builtInThinking>, request: ModelRequest, message: Message) {
  let sent: ModelRequest | undefined;
  const response = await mw.wrapModelCall?.(
    async (r) => {
      sent = r;
      return { message, finishReason: 'stop' };
    },
    request,
    {} as never,
  );
  return { sent, kept: response?.message as Message };
}

describe('builtInThinking', () => {
  it('asks for native thinking in the model settings, over the agent settings, with no instruction', async () => {
    const thought = { type: 'reasoning', reasoning: 'thinking natively', signature: 'sig-1', provider: 'anthropic' } as const;
    const model = new ScriptedModel({ responses: [reply('done', thought)] });
    const agent = new ReActAgent({
      name: 'thinker',
      model,
      middleware: [builtInThinking({ thinking: { budgetTokens: 2048 } })],
      settings: { temperature: 0.2, reasoning: { effort: 'low' } },
    });
    const runner = new Runner({ agent, appName: 'think' });
    const result = await runner.run({ userId: 'u', input: 'hi' }).result();
    expect(result.output).toBe('done');
    const request = model.requests[0];
    expect(request?.settings).toEqual({ temperature: 0.2, reasoning: { effort: 'low', budgetTokens: 2048 } });
    expect(request?.messages.map((m) => m.role)).toEqual(['user']); // no system instruction added
    const session = await runner.sessionStore.get({ appName: 'think', userId: 'u', id: result.sessionId });
    // The provider's reasoning is kept as it came: no kind, signature intact.
    expect(session?.events.find((e) => e.actions?.final)?.message?.content[0]).toEqual(thought);
  });

  it('defaults to medium effort', async () => {
    const { sent } = await through(builtInThinking(), { messages: [] }, { role: 'assistant', content: [] });
    expect(sent?.settings).toEqual({ reasoning: { effort: 'medium' } });
  });

  it('copies reasoning without a kind, never mutating the input', async () => {
    const input: Message = Object.freeze({
      role: 'assistant',
      content: Object.freeze([Object.freeze({ type: 'reasoning', reasoning: 'r', reasoningKind: 'planning', signature: 's' } as const)]),
    });
    const out = (await through(builtInThinking(), { messages: [] }, input)).kept;
    expect(out.content).toEqual([{ type: 'reasoning', reasoning: 'r', signature: 's' }]);
    expect(input.content[0]).toHaveProperty('reasoningKind', 'planning');
    const untouched: Message = { role: 'assistant', content: [{ type: 'text', text: 'x' }] };
    expect((await through(builtInThinking(), { messages: [] }, untouched)).kept).toBe(untouched);
  });

  it.each([
    [{ effort: 'extreme' as 'high' }, /effort must be one of/],
    [{ budgetTokens: 0 }, /budgetTokens must be a positive integer/],
    [{ budgetTokens: 1.5 }, /budgetTokens must be a positive integer/],
  ])('rejects bad thinking settings %j with a ConfigurationError', (thinking, message) => {
    expect(() => builtInThinking({ thinking })).toThrow(ConfigurationError);
    expect(() => builtInThinking({ thinking })).toThrow(message);
  });
});
