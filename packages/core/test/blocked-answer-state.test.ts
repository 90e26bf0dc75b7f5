import { describe, expect, it } from 'vitest';
import { type Guardrail, guardrails, InMemorySessionStore, ReActAgent, Runner } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';

const noCodes: Guardrail = { name: 'no_codes', check: (text) => ({ tripwire: text.includes('XYZZY'), reason: 'leaks a code' }) };

function vault(answers: string[]) {
  const model = new ScriptedModel({ responses: answers });
  const agent = new ReActAgent({ name: 'vault', model, outputKey: 'last_answer', middleware: [guardrails({ output: [noCodes] })] });
  const store = new InMemorySessionStore();
  return { store, runner: new Runner({ agent, appName: 'g', sessionStore: store }) };
}
const key = { appName: 'g', userId: 'u', id: 's' };

describe('outputKey and a blocked answer', () => {
  it('a blocked answer does not stay in state: the key is set back to its value before the answer', async () => {
    const { store, runner } = vault(['The vault is downstairs.', 'The vault code is XYZZY.']);
    await runner.run({ userId: 'u', sessionId: 's', input: 'Where?' }).result();
    expect((await store.get(key))!.state.last_answer).toBe('The vault is downstairs.');
    const blocked = await runner.run({ userId: 'u', sessionId: 's', input: 'Code?' }).result();
    expect(blocked.status).toBe('blocked');
    expect((await store.get(key))!.state.last_answer).toBe('The vault is downstairs.');
  });

  it('a key with no value before is left empty (null), never holding the blocked text', async () => {
    const { store, runner } = vault(['The vault code is XYZZY.']);
    const blocked = await runner.run({ userId: 'u', sessionId: 's', input: 'Code?' }).result();
    expect(blocked.status).toBe('blocked');
    expect((await store.get(key))!.state.last_answer).toBeNull();
  });

  it('an answer that passes is kept in state', async () => {
    const { store, runner } = vault(['No code here.']);
    await runner.run({ userId: 'u', sessionId: 's', input: 'Code?' }).result();
    expect((await store.get(key))!.state.last_answer).toBe('No code here.');
  });
});
