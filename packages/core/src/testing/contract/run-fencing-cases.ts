import { ReActAgent } from '../../agents/react-agent.js';
import type { Run } from '../../runner/run.js';
import type { RunResult } from '../../events/run-result.js';
import { Runner } from '../../runner/runner.js';
import type { SessionKey } from '../../sessions/session.js';
import type { SessionStore } from '../../sessions/session-store.js';
import { type Tool, tool } from '../../tools/tool.js';
import { type HeldAppend, holdAppend } from '../hold-append.js';
import { callTools, ScriptedModel } from '../scripted-model.js';
import type { ContractCaseApi } from './contract-case.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `held` has its append written; fails at once (no hang) if the run ended before it got there. */
function heldInFlight(held: HeldAppend, run: Run): Promise<void> {
  const ended = run.result().then((result) => {
    throw new Error(`the run ended ${result.status} (${result.error?.message ?? 'no error'}) before it stored its tool call`);
  });
  return Promise.race([held.written, ended]);
}

/** Tools that count their starts: `runs.get(name)` is how often `execute` was called. */
function countedTools(names: readonly string[]): { tools: Tool[]; runs: Map<string, number> } {
  const runs = new Map(names.map((n) => [n, 0]));
  const tools = names.map((name) =>
    tool({
      name,
      description: `counts its runs (${name})`,
      parameters: { type: 'object', properties: {} },
      execute: () => {
        runs.set(name, (runs.get(name) ?? 0) + 1);
        return `${name} done`;
      },
    }),
  );
  return { tools, runs };
}

/**
 * A tool never starts once its run is aborted or has lost its lease, also when that happens while
 * the append storing the model's tool call is in flight (the store has written it, the run waits):
 * the run ends `aborted`, or `failed` with `LeaseLostError`, without calling `execute`; the stored
 * call then runs once, in the resume or the new owner's run. Runs a `Runner` over the store.
 */
export function runFencingCases({ it, expect, withStore, app }: ContractCaseApi): void {
  const userId = 'u1';
  const key = (id: string): SessionKey => ({ appName: app, userId, id });
  const agent = (tools: Tool[], model: ScriptedModel) => new ReActAgent({ name: 'worker', model, tools });
  const toolResults = async (store: SessionStore, id: string) =>
    ((await store.get(key(id)))?.events ?? []).flatMap((e) => e.message?.content.filter((b) => b.type === 'tool_result') ?? []);

  it(
    'never starts a tool once run.abort() came while the append storing its call was in flight; a resume runs it once',
    withStore(async (store) => {
      const { tools, runs } = countedTools(['transfer']);
      const held = holdAppend(store);
      const model = new ScriptedModel({ responses: [callTools({ name: 'transfer', id: 't1' }), 'sent'] });
      const runner = new Runner({ agent: agent(tools, model), appName: app, sessionStore: held.store });
      const run = runner.run({ userId, sessionId: 'abort-1', input: 'send it' });
      await heldInFlight(held, run);
      run.abort();
      held.release();
      const result = await run.result();
      expect(result.status).toBe('aborted');
      expect(runs.get('transfer')).toBe(0);
      expect(await toolResults(store, 'abort-1')).toEqual([]);
      const resumed = await runner.resume({ userId, sessionId: 'abort-1' }).result();
      expect(resumed).toMatchObject({ status: 'completed', output: 'sent' });
      expect(runs.get('transfer')).toBe(1);
    }),
  );

  it(
    "never starts any of a turn's parallel tool calls once the caller's AbortSignal fired while their append was in flight",
    withStore(async (store) => {
      const names = ['a', 'b', 'c'];
      const { tools, runs } = countedTools(names);
      const held = holdAppend(store);
      const model = new ScriptedModel({ responses: [callTools(...names.map((name) => ({ name, id: `p-${name}` }))), 'all done'] });
      const runner = new Runner({ agent: agent(tools, model), appName: app, sessionStore: held.store });
      const controller = new AbortController();
      const run = runner.run({ userId, sessionId: 'abort-2', input: 'go', signal: controller.signal });
      await heldInFlight(held, run);
      controller.abort();
      held.release();
      expect((await run.result()).status).toBe('aborted');
      expect([...runs.values()]).toEqual([0, 0, 0]);
      expect((await runner.resume({ userId, sessionId: 'abort-2' }).result()).status).toBe('completed');
      expect([...runs.values()]).toEqual([1, 1, 1]);
      expect((await toolResults(store, 'abort-2')).length).toBe(3);
    }),
  );

  it(
    'never starts a tool once its run lost its lease while the append storing its call was in flight; the new owner runs it once',
    withStore(async (store) => {
      if (!store.acquireLease) return; // a store without leases: the lease cases report it
      const { tools, runs } = countedTools(['transfer']);
      const held = holdAppend(store, { stallRenewals: true });
      const zombie = new Runner({
        agent: agent(tools, new ScriptedModel({ responses: [callTools({ name: 'transfer', id: 't1' }), 'sent'] })),
        appName: app,
        sessionStore: held.store,
        owner: 'zombie',
        leaseMs: 300,
      });
      const run = zombie.run({ userId, sessionId: 'lease-1', input: 'send it' });
      await heldInFlight(held, run);
      // The zombie is held and cannot renew: once its lease expired in the store, another worker takes the session over.
      const taker = new Runner({
        agent: agent(tools, new ScriptedModel({ responses: ['sent'] })),
        appName: app,
        sessionStore: store, // another store object than the zombie's: they meet only at the store, as two workers
        owner: 'taker',
      });
      let taken: RunResult | undefined;
      for (let attempt = 0; !taken; attempt++) {
        await sleep(50);
        taken = await taker
          .resume({ userId, sessionId: 'lease-1' })
          .result()
          .catch((error: unknown) => {
            if ((error as Error).name !== 'SessionBusyError' || attempt >= 100) throw error;
            return undefined;
          });
      }
      expect(taken).toMatchObject({ status: 'completed', output: 'sent' });
      expect(runs.get('transfer')).toBe(1); // the call stored by the zombie, run by its new owner
      const settled = (await store.get(key('lease-1')))?.version;
      held.release();
      const result = await run.result();
      expect(result.status).toBe('failed');
      expect(result.error?.name).toBe('LeaseLostError');
      expect(runs.get('transfer')).toBe(1);
      expect((await store.get(key('lease-1')))?.version).toBe(settled);
      expect((await toolResults(store, 'lease-1')).length).toBe(1);
    }),
  );
}
