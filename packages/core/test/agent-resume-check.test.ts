import { describe, expect, it } from 'vitest';
import {
  InMemorySessionStore,
  ResumeError,
  Runner,
  SequentialAgent,
  type Agent,
  type AgentEvent,
  type Interrupt,
  type InvocationContext,
} from '@replan/core';
import { RunInterruptedSignal } from '@replan/core/agent-kit';

/** An agent that asks one question (its own interrupt, no tool) and accepts only a number as the answer. */
class AskingAgent implements Agent {
  readonly name = 'asker';
  readonly description = 'asks for a number';
  readonly checked: unknown[] = [];
  async *run(ctx: InvocationContext): AsyncGenerator<AgentEvent, void, undefined> {
    const id = 'asker:question';
    if (ctx.services.resumeValues.has(id)) {
      yield ctx.event({ actions: { stateDelta: { answer: ctx.services.resumeValues.get(id) } } });
      return;
    }
    const interrupt: Interrupt = { id, reason: 'question', payload: 'how many?', path: ctx.path };
    if (!ctx.services.interruptIds.has(id)) yield ctx.event({ actions: { interrupt } });
    throw new RunInterruptedSignal([interrupt]);
  }
  checkResumeValue(interrupt: Interrupt, value: unknown, state: Readonly<Record<string, unknown>>): void {
    this.checked.push({ id: interrupt.id, value, stateKeys: Object.keys(state) });
    if (typeof value !== 'number') throw ResumeError.invalidValue(interrupt.id, 'it must be a number');
  }
}

describe('Agent.checkResumeValue: an agent checks answers to its own interrupts at resume', () => {
  it('refuses a value before anything is stored (the interrupt stays open), accepts a valid one', async () => {
    const asker = new AskingAgent();
    const store = new InMemorySessionStore();
    const runner = new Runner({ agent: new SequentialAgent({ name: 'root', subAgents: [asker] }), appName: 'a', sessionStore: store });
    const stopped = await runner.run({ userId: 'u', input: 'go' }).result();
    expect(stopped.interrupts.map((i) => i.path)).toEqual(['root/asker']);
    const key = { appName: 'a', userId: 'u', id: stopped.sessionId };
    const before = (await store.get(key))?.events.length;

    await expect(
      runner.resume({ userId: 'u', sessionId: stopped.sessionId, values: { 'asker:question': 'many' } }).result(),
    ).rejects.toThrow(/must be a number/);
    expect((await store.get(key))?.events.length).toBe(before);
    expect(asker.checked).toEqual([{ id: 'asker:question', value: 'many', stateKeys: [] }]);

    const done = await runner.resume({ userId: 'u', sessionId: stopped.sessionId, values: { 'asker:question': 3 } }).result();
    expect(done.status).toBe('completed');
    expect((await store.get(key))?.state.answer).toBe(3);
  });
});
