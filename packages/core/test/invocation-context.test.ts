import { describe, expect, it } from 'vitest';
import { type Agent, assistantMessage, InMemorySessionStore, ReActAgent, Runner } from '@replan/core';
import { InvocationContext, RunBudget } from '@replan/core/agent-kit';
import { ScriptedModel } from '@replan/core/testing';

const services: InvocationContext['services'] = {
  invocationId: 'inv',
  session: { appName: 'a', userId: 'u', id: 's', events: [], state: {}, version: 0 },
  signal: new AbortController().signal,
  streaming: false,
  budget: new RunBudget(),
  resumeValues: new Map(),
  interruptIds: new Set(),
  newId: () => 'id',
};
const agent = (name: string) => new ReActAgent({ name, model: new ScriptedModel() });

describe('InvocationContext.child', () => {
  const parent = new InvocationContext(services, agent('parent'), 'root/parent', 'outer', 2);

  it("by default puts the child under the parent's path by its name, on the parent's branch, its history starting now", () => {
    const child = parent.child(agent('kid'));
    expect([child.path, child.branch, child.scopeStart, child.agent.name]).toEqual(['root/parent/kid', 'outer', 0, 'kid']);
  });

  it('takes another path segment, a nested branch and an explicit scope start', () => {
    const step = parent.child(agent('kid'), { pathSegment: 'step_1', branch: 'executor_step_1', scopeStart: parent.scopeStart });
    expect([step.path, step.branch, step.scopeStart]).toEqual(['root/parent/step_1', 'outer.executor_step_1', 2]);
    expect(new InvocationContext(services, agent('p'), 'p', undefined, 0).child(agent('k'), { branch: 'b' }).branch).toBe('b');
  });

  it('keeps the signal given by withSignal', () => {
    const controller = new AbortController();
    const child = parent.withSignal(controller.signal).child(agent('kid'));
    expect(child.signal).toBe(controller.signal);
    expect(child.services.session).toBe(services.session);
  });
});

describe('ctx.interrupt: an agent asks a human, as a tool does', () => {
  const asking: Agent = {
    name: 'asker',
    description: 'asks once, then answers with what it was told',
    async *run(ctx) {
      const told = yield* ctx.interrupt<string>({ id: `${ctx.invocationId}:ask`, reason: 'question', payload: { q: 'which city?' } });
      yield ctx.event({ message: assistantMessage(`going to ${told}`), actions: { final: { text: `going to ${told}` } } });
    },
  };

  it('stores the interrupt and ends the run interrupted; a resume with the answer returns it from the same call', async () => {
    const runner = new Runner({ agent: asking, appName: 'ask' });
    const first = await runner.run({ userId: 'u', input: 'go' }).result();
    expect(first.status).toBe('interrupted');
    expect(first.interrupts).toEqual([
      { id: `${first.invocationId}:ask`, reason: 'question', payload: { q: 'which city?' }, path: 'asker' },
    ]);
    const id = first.interrupts[0]?.id as string;
    const resumed = await runner.resume({ userId: 'u', sessionId: first.sessionId, values: { [id]: 'Paris' } }).result();
    expect(resumed.status).toBe('completed');
    expect(resumed.output).toBe('going to Paris');
  });

  it('asks once: a resume without the answer stores no second interrupt', async () => {
    const store = new InMemorySessionStore();
    const runner = new Runner({ agent: asking, appName: 'ask', sessionStore: store });
    const first = await runner.run({ userId: 'u', input: 'go' }).result();
    const again = await runner.resume({ userId: 'u', sessionId: first.sessionId }).result();
    expect(again.status).toBe('interrupted');
    const events = (await store.get({ appName: 'ask', userId: 'u', id: first.sessionId }))?.events ?? [];
    expect(events.filter((e) => e.actions?.interrupt).length).toBe(1);
  });
});
