/**
 * A plan review answered in a new process: the first run stops at its plan (in this process), a
 * child process — its own agent, scripted models and store — resumes it with the answer. Each
 * answer kind, linear and graph, on the file store and on PostgreSQL (one child per case).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Runner } from '@replan/core';
import { planExecuteEventKind } from '@replan/planexecute';
import { useTestPostgres } from '../../../packages/postgres/test/support/use-test-postgres.js';
import { buildReviewAgent, REVIEW, REVIEW_INPUT } from '../child/review-scenario.mjs';
import { type ChildOutcome, runChild } from './support/child-process.js';
import { APP, fileTarget, postgresTarget, type StoreTarget, type TargetFactory, withTarget } from './support/store-target.js';

const db = useTestPostgres();
const postgres = postgresTarget(
  () => db.connectionString,
  () => db.freshSchema('review'),
);

type Mode = 'linear' | 'graph';
type Answer = 'approve' | 'edit' | 'reject';

/** What the resumed run must do with each answer: the steps it runs, its model calls, how it ends. */
const expected = {
  linear: {
    approve: { results: ['a draft', 'polished'], modelCalls: 4, status: 'completed' }, // each step, the replanner after each (it keeps the rest, then answers)
    edit: { results: ['done in one'], modelCalls: 2, status: 'completed' },
    reject: { results: [], modelCalls: 1, status: 'interrupted' }, // the planner plans again; the new plan waits for review
  },
  graph: {
    approve: { results: ['A done', 'B done'], modelCalls: 3, status: 'completed' }, // two steps at once, then the replanner
    edit: { results: ['C done'], modelCalls: 2, status: 'completed' },
    reject: { results: [], modelCalls: 1, status: 'interrupted' },
  },
} as const;

const answerValue = (mode: Mode, answer: Answer) =>
  answer === 'approve' ? { approve: true } : answer === 'edit' ? { edit: REVIEW[mode].edit } : { reject: 'shorter, please' };

async function answeredInAnotherProcess(newTarget: TargetFactory, mode: Mode, answer: Answer): Promise<void> {
  await withTarget(newTarget, async (target: StoreTarget) => {
    const sessionId = `${mode}-${answer}`;
    // The first process: the run stops at its plan, before any step.
    const runner = new Runner({ agent: buildReviewAgent(mode), appName: APP, sessionStore: target.store });
    const stopped = await runner.run({ userId: 'u1', sessionId, input: REVIEW_INPUT }).result();
    const review = stopped.interrupts.find((i) => i.reason === 'plan_review');
    expect(review, stopped.status).toBeDefined();
    expect(stopped.modelCalls).toBe(1);

    const child = await runChild({
      store: target.config,
      sessionId,
      scenario: `review-${mode}`,
      mode: 'resume',
      values: { [review?.id ?? '']: answerValue(mode, answer) },
      workDir: target.workDir,
      processLabel: 'reviewer',
    });
    const want = expected[mode][answer];
    expect(child.result).toMatchObject({ status: want.status, modelCalls: want.modelCalls });
    if (want.status === 'completed') expect(child.result?.output).toBe(REVIEW[mode].script.answer);
    const events = (await target.session(sessionId))?.events ?? [];
    const results = events.flatMap((e) => {
      const kind = planExecuteEventKind(e);
      return kind?.kind === 'step-result' ? [String(kind.executedStep.result)] : [];
    });
    expect(results.sort()).toEqual([...want.results].sort());
    if (answer === 'reject') {
      // A new review is open (the old one answered), and the planner was told why.
      const next = child.result?.interrupts?.find((i) => i.reason === 'plan_review');
      expect(next?.id).toBeDefined();
      expect(next?.id).not.toBe(review?.id);
    }
  });
}

/**
 * Two processes answer the same review at the same instant (both held just before they store the
 * answer): one proceeds, the other is refused; each step runs once and the log holds one resume.
 */
async function twoReviewersAtOnce(newTarget: TargetFactory, mode: Mode): Promise<void> {
  await withTarget(newTarget, async (target: StoreTarget) => {
    const sessionId = `${mode}-race`;
    const runner = new Runner({ agent: buildReviewAgent(mode), appName: APP, sessionStore: target.store });
    const stopped = await runner.run({ userId: 'u1', sessionId, input: REVIEW_INPUT }).result();
    const review = stopped.interrupts.find((i) => i.reason === 'plan_review');
    const gate = join(target.workDir, 'go');
    let waiting = 2;
    const open = () => {
      if (--waiting === 0) void writeFile(gate, '');
    };
    const approve = (processLabel: string): Promise<ChildOutcome> =>
      runChild(
        {
          store: target.config,
          sessionId,
          scenario: `review-${mode}`,
          mode: 'resume',
          values: { [review?.id ?? '']: { approve: true } },
          workDir: target.workDir,
          processLabel,
          hold: { at: 1, file: gate },
        },
        { onMarker: (n, label) => n === 1 && label === 'store:append:before user:resume' && open() },
      );
    const outcomes = await Promise.all([approve('a'), approve('b')]);
    expect(outcomes.map((o) => o.result?.status).sort()).toEqual(['completed', 'rejected']);
    const loser = outcomes.find((o) => o.result?.status === 'rejected');
    expect(['ConcurrentUpdateError', 'SessionBusyError']).toContain(loser?.result?.error?.name);
    const events = (await target.session(sessionId))?.events ?? [];
    expect(events.filter((e) => e.meta?.kind === 'resume')).toHaveLength(1);
    const results = events.flatMap((e) => {
      const kind = planExecuteEventKind(e);
      return kind?.kind === 'step-result' ? [String(kind.executedStep.result)] : [];
    });
    expect(results.sort()).toEqual([...expected[mode].approve.results].sort());
  });
}

const cases = (['linear', 'graph'] as const).flatMap((mode) => (['approve', 'edit', 'reject'] as const).map((a) => [mode, a] as const));

describe('a plan review answered in a new process: FileSessionStore', () => {
  it.each(cases)('%s mode, %s', (mode, answer) => answeredInAnotherProcess(fileTarget, mode, answer));
  it('two processes approve at once: one proceeds, the other is refused, no step runs twice', () =>
    twoReviewersAtOnce(fileTarget, 'graph'));
});

describe('a plan review answered in a new process: PostgresSessionStore', () => {
  for (const [mode, answer] of cases) db.it(`${mode} mode, ${answer}`, () => answeredInAnotherProcess(postgres, mode, answer));
  db.it('two processes approve at once: one proceeds, the other is refused, no step runs twice', () =>
    twoReviewersAtOnce(postgres, 'graph'),
  );
});
