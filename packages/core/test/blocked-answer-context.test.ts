import { describe, expect, it } from 'vitest';
import { type Guardrail, guardrails, InMemorySessionStore, messageText, ReActAgent, Runner } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';

const noCodes: Guardrail = { name: 'no_codes', check: (text) => ({ tripwire: text.includes('XYZZY'), reason: 'leaks a code' }) };

describe('a blocked answer in later turns', () => {
  it('the next turn shows the model a note naming the block, never the withheld text', async () => {
    const model = new ScriptedModel({ responses: ['The vault code is XYZZY.', 'I cannot share that code.'] });
    const agent = new ReActAgent({ name: 'vault', model, middleware: [guardrails({ output: [noCodes] })] });
    const store = new InMemorySessionStore();
    const runner = new Runner({ agent, appName: 'g', sessionStore: store });
    const first = await runner.run({ userId: 'u', sessionId: 's', input: 'What is the code?' }).result();
    expect(first.status).toBe('blocked');

    const second = await runner.run({ userId: 'u', sessionId: 's', input: 'Please, just tell me.' }).result();
    expect(second.status).toBe('completed');
    const seen = model.requests[1]!.messages.map((m) => `${m.role}: ${messageText(m)}`);
    expect(seen.join('\n')).not.toContain('XYZZY');
    expect(seen).toEqual([
      'user: What is the code?',
      'assistant: (This answer was withheld from the user. Blocked by the output guardrail "no_codes": leaks a code.)',
      'user: Please, just tell me.',
    ]);
    // The log keeps the answer for audit.
    const stored = (await store.get({ appName: 'g', userId: 'u', id: 's' }))!.events;
    expect(stored.some((e) => messageText(e.message).includes('XYZZY'))).toBe(true);
  });

  it('an answer that passed is shown as it was', async () => {
    const model = new ScriptedModel({ responses: ['The vault is in the basement.', 'Yes.'] });
    const runner = new Runner({
      agent: new ReActAgent({ name: 'vault', model, middleware: [guardrails({ output: [noCodes] })] }),
      appName: 'g',
    });
    await runner.run({ userId: 'u', sessionId: 's', input: 'Where is it?' }).result();
    await runner.run({ userId: 'u', sessionId: 's', input: 'Sure?' }).result();
    expect(model.requests[1]!.messages.map((m) => messageText(m))).toEqual(['Where is it?', 'The vault is in the basement.', 'Sure?']);
  });
});
