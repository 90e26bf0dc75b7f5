import { describe, expect, it } from 'vitest';
import { type Agent, type AgentEvent, type InvocationContext, Runner } from '@replan/core';
import { collect } from './support.js';

/** Appends `count` items to `log`, reading the live state after each append. */
class Appender implements Agent {
  readonly description = '';
  seen: unknown[] = [];
  constructor(
    readonly name: string,
    private readonly key: string,
    private readonly count: number,
  ) {}
  async *run(ctx: InvocationContext): AsyncGenerator<AgentEvent> {
    for (let i = 0; i < this.count; i++) {
      yield ctx.event({ actions: { stateAppend: { [this.key]: [i] } } });
      this.seen.push([...(ctx.state[this.key] as unknown[])]);
    }
  }
}

describe('stateAppend', () => {
  it('grows list state event by event, storing only the new items', async () => {
    const agent = new Appender('a', 'log', 3);
    const runner = new Runner({ agent, appName: 'x' });
    const { result } = await collect(runner.run({ userId: 'u', input: 'go', sessionId: 's', state: { log: ['start'] } }));
    expect(result.status).toBe('completed');
    expect(agent.seen).toEqual([
      ['start', 0],
      ['start', 0, 1],
      ['start', 0, 1, 2],
    ]);
    const session = await runner.sessionStore.get({ appName: 'x', userId: 'u', id: 's' });
    expect(session?.state.log).toEqual(['start', 0, 1, 2]);
    const appends = session?.events.flatMap((e) => (e.actions?.stateAppend ? [e.actions.stateAppend] : []));
    expect(appends).toEqual([{ log: [0] }, { log: [1] }, { log: [2] }]);
  });

  it('keeps temp: appends for the invocation only', async () => {
    const agent = new Appender('a', 'temp:scratch', 2);
    const runner = new Runner({ agent, appName: 'x' });
    await collect(runner.run({ userId: 'u', input: 'go', sessionId: 's' }));
    expect(agent.seen).toEqual([[0], [0, 1]]);
    const session = await runner.sessionStore.get({ appName: 'x', userId: 'u', id: 's' });
    expect(session?.state['temp:scratch']).toBeUndefined();
    expect(session?.events.some((e) => e.actions?.stateAppend)).toBe(false);
  });

  it('refuses appends to shared app:/user: keys with a clear error, storing nothing of them', async () => {
    const runner = new Runner({ agent: new Appender('a', 'user:history', 1), appName: 'x' });
    const { result } = await collect(runner.run({ userId: 'u', input: 'go', sessionId: 's' }));
    expect(result.status).toBe('failed');
    expect(result.error?.name).toBe('ConfigurationError');
    expect(result.error?.message).toMatch(/stateAppend takes session or temp: keys only/);
    const session = await runner.sessionStore.get({ appName: 'x', userId: 'u', id: 's' });
    expect(session?.state['user:history']).toBeUndefined();
  });
});
