/**
 * Plan grants across processes: the run stops at its plan in this process; a child process — its
 * own agent, models and store, nothing in memory from the first — approves the plan, and the call
 * the plan grants runs there unasked (its result naming the review), while the call outside the
 * grant stops for approval; a third process approves that one. Linear and graph, on the file store
 * and on PostgreSQL.
 */
import type { AgentEvent } from '@replan/core';
import { Runner } from '@replan/core';
import { describe, expect, it } from 'vitest';
import { useTestPostgres } from '../../../packages/postgres/test/support/use-test-postgres.js';
import { effectLog } from '../child/effect-log.mjs';
import { buildGrantAgent, GRANT_INPUT } from '../child/grant-scenario.mjs';
import { runChild } from './support/child-process.js';
import { readEffects } from './support/session-view.js';
import { APP, fileTarget, postgresTarget, type StoreTarget, type TargetFactory, withTarget } from './support/store-target.js';

const db = useTestPostgres();
const postgres = postgresTarget(
  () => db.connectionString,
  () => db.freshSchema('grants'),
);

type Mode = 'linear' | 'graph';

/** The stored result event of tool call `id`. */
const resultOf = (events: readonly AgentEvent[], id: string) =>
  events.find((e) => e.message?.content.some((b) => b.type === 'tool_result' && b.toolCallId === id));

async function grantedInAnotherProcess(newTarget: TargetFactory, mode: Mode): Promise<void> {
  await withTarget(newTarget, async (target: StoreTarget) => {
    const sessionId = `grants-${mode}`;
    const agent = buildGrantAgent(mode, { log: effectLog(target.workDir, 'first') });
    const runner = new Runner({ agent, appName: APP, sessionStore: target.store });
    const stopped = await runner.run({ userId: 'u1', sessionId, input: GRANT_INPUT }).result();
    const review = stopped.interrupts.find((i) => i.reason === 'plan_review');
    expect(review, stopped.status).toBeDefined();

    const child = (processLabel: string, values: Record<string, unknown>) =>
      runChild({
        store: target.config,
        sessionId,
        scenario: `grants-${mode}`,
        mode: 'resume',
        values,
        workDir: target.workDir,
        processLabel,
      });
    const approved = await child('reviewer', { [review?.id ?? '']: { approve: true } });
    // The granted call ran in the reviewer's process without asking; the call outside the grant asks.
    expect(approved.result?.status).toBe('interrupted');
    expect(approved.result?.interrupts?.map((i) => [i.id, i.reason])).toEqual([['pay-bob:approval', 'approval']]);
    expect(await readEffects(target.workDir, sessionId)).toEqual(['pay-ann']);
    const events = (await target.session(sessionId))?.events ?? [];
    expect(resultOf(events, 'pay-ann')?.meta?.grantedBy).toBe(review?.id);

    const done = await child('approver', { 'pay-bob:approval': true });
    expect(done.result?.status).toBe('completed');
    expect(await readEffects(target.workDir, sessionId)).toEqual(['pay-ann', 'pay-bob']);
    const after = (await target.session(sessionId))?.events ?? [];
    expect(resultOf(after, 'pay-bob')?.meta?.grantedBy).toBeUndefined();
  });
}

describe('plan grants in a new process: FileSessionStore', () => {
  it.each(['linear', 'graph'] as const)('%s mode', (mode) => grantedInAnotherProcess(fileTarget, mode));
});

describe('plan grants in a new process: PostgresSessionStore', () => {
  for (const mode of ['linear', 'graph'] as const) db.it(`${mode} mode`, () => grantedInAnotherProcess(postgres, mode));
});
