import { describe, expect, it } from 'vitest';
import { fallbackModel, type Message } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';
import { httpError, user } from './support/fallback-models.js';

// What `fallbackModel` sends each model of reasoning another provider signed or encrypted.

describe('fallbackModel: reasoning bound to another provider', () => {
  const history: Message[] = [
    user('weather?'),
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', reasoning: 'I should look it up', signature: 'anthropic-sig', provider: 'anthropic' },
        { type: 'reasoning', reasoning: '', redacted: true, data: 'opaque', provider: 'anthropic' },
        { type: 'reasoning', reasoning: '', data: 'encrypted', redacted: true, provider: 'openai', providerData: { item: { id: 'rs_1' } } },
        { type: 'reasoning', reasoning: 'plain thoughts', provider: 'think-tags' },
        { type: 'tool_call', id: 'c1', name: 'weather', args: {}, signature: 'gemini-sig' },
      ],
    },
    { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'c1', name: 'weather', output: 'sunny' }] },
  ];

  it('a fallback gets others’ signatures and encrypted items downgraded to plain text; the input is not changed', async () => {
    const before = structuredClone(history);
    const backup = Object.assign(new ScriptedModel({ responses: ['sunny'] }), { reasoningProviders: ['openai'] });
    await fallbackModel([new ScriptedModel({ responses: [httpError(429)] }), backup]).generate({ messages: history });
    expect(history).toEqual(before);
    expect(backup.requests[0]?.messages[1]?.content).toEqual([
      { type: 'reasoning', reasoning: 'I should look it up' },
      { type: 'reasoning', reasoning: '', data: 'encrypted', redacted: true, provider: 'openai', providerData: { item: { id: 'rs_1' } } },
      { type: 'reasoning', reasoning: 'plain thoughts', provider: 'think-tags' },
      { type: 'tool_call', id: 'c1', name: 'weather', args: {} },
    ]);
  });

  it('a fallback that declares nothing gets no bound reasoning; an undeclared primary gets the request unchanged', async () => {
    const primary = new ScriptedModel({ responses: [httpError(503)] });
    const backup = new ScriptedModel({ responses: ['sunny'] });
    const request = { messages: history };
    await fallbackModel([primary, backup]).generate(request);
    expect(primary.requests[0]).toEqual(request);
    expect(primary.requests[0]?.messages.every((m, i) => m === history[i])).toBe(true);
    const sent = JSON.stringify(backup.requests[0]);
    for (const bound of ['anthropic-sig', 'opaque', 'encrypted', 'gemini-sig', 'rs_1']) expect(sent).not.toContain(bound);
  });

  it("a model keeps its own provider's reasoning", async () => {
    const gemini = Object.assign(new ScriptedModel({ responses: ['ok'] }), { reasoningProviders: ['anthropic', 'gemini'] });
    await fallbackModel([gemini]).generate({ messages: history });
    const sent = JSON.stringify(gemini.requests[0]);
    for (const kept of ['anthropic-sig', 'opaque', 'gemini-sig']) expect(sent).toContain(kept);
    expect(sent).not.toContain('encrypted');
  });

  it('two models behind one gateway (same provider tag): each gets back only the signed reasoning it made', async () => {
    const signed = (sig: string): Message => ({
      role: 'assistant',
      content: [
        {
          type: 'reasoning',
          reasoning: `thinking ${sig}`,
          signature: sig,
          provider: 'openrouter',
          providerData: { type: 'reasoning.text' },
        },
        { type: 'tool_call', id: `call_${sig}`, name: 'weather', args: {} },
      ],
    });
    const primary = Object.assign(
      new ScriptedModel({ id: 'or/claude', responses: [signed('claude-sig'), httpError(429), httpError(429), 'done'] }),
      {
        reasoningProviders: ['openrouter'],
      },
    );
    const backup = Object.assign(new ScriptedModel({ id: 'or/gpt', responses: [signed('gpt-sig'), signed('gpt-sig-2')] }), {
      reasoningProviders: ['openrouter'],
    });
    const model = fallbackModel([primary, backup]);
    const messages: Message[] = [user('weather?')];
    const turn = async () => {
      const response = await model.generate({ messages: [...messages] });
      messages.push(response.message);
      const call = response.message.content.find((b) => b.type === 'tool_call');
      if (call?.type === 'tool_call')
        messages.push({ role: 'tool', content: [{ type: 'tool_result', toolCallId: call.id, name: 'weather', output: 'sunny' }] });
      return response;
    };
    const first = await turn();
    expect(first.message.content[0]).toMatchObject({ signature: 'claude-sig', model: 'or/claude' }); // marked as its maker's
    await turn(); // the primary is rate limited: the backup answers
    await turn(); // still limited: the backup answers again and gets its own signature back
    await turn(); // the primary is back
    const sentTo = (m: ScriptedModel, call: number) => JSON.stringify(m.requests[call]);
    expect(sentTo(backup, 0)).not.toContain('"signature":"claude-sig"');
    expect(sentTo(backup, 0)).toContain('thinking claude-sig'); // downgraded to plain text
    expect(sentTo(backup, 1)).toContain('"signature":"gpt-sig"');
    expect(sentTo(primary, 3)).toContain('"signature":"claude-sig"');
    expect(sentTo(primary, 3)).not.toMatch(/"signature":"gpt-sig/);
  });
});
