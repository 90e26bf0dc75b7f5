import { describe, expect, it } from 'vitest';
import { runSuite, type Suite, type SuiteTask, type TaskOracle } from '@replan/eval';
import { builtinSuites } from '../src/suites/builtin/index.js';
import { judgeState } from '../src/suites/score-task.js';

// Mutants: a wrong oracle must be caught by the scorer it offends. Each runs as ReAct (the scorers
// do not depend on the agent kind).
type AnyTask = SuiteTask<any>;
const withOracles = (suite: Suite<any>, mutate: (task: AnyTask) => AnyTask | undefined): Suite<any> => ({
  ...suite,
  tasks: suite.tasks.flatMap((t) => mutate(t) ?? []),
});
const noCalls = (oracle: TaskOracle): TaskOracle => ({
  plan: oracle.plan.map((s) => ({ ...s, calls: [] })),
  ...(oracle.replan ? { replan: oracle.replan.map((s) => ({ ...s, calls: [] })) } : {}),
  answer: oracle.answer,
});
const criterionOf = (report: Awaited<ReturnType<typeof runSuite>>, task: string, criterion: string) =>
  report.report.cases.find((c) => c.name === task)?.criteria.find((k) => k.criterion === criterion);

describe('suite scorers catch wrong oracles', () => {
  for (const [name, suite] of Object.entries(builtinSuites)) {
    it(`${name}: an oracle that does nothing and answers "Done." fails every task`, async () => {
      const lazy = withOracles(suite, (t) => ({ ...t, oracle: { plan: [{ ...t.oracle.plan[0]!, calls: [] }], answer: 'Done.' } }));
      const report = await runSuite({ suite: lazy, agent: 'react', oracle: true });
      expect(report.report.cases.filter((c) => c.pass).map((c) => c.name)).toEqual([]);
      expect(report.success).toBe(0);
    });

    it(`${name}: an answer without the facts fails the facts scorer of every task that names facts`, async () => {
      const vague = withOracles(suite, (t) =>
        t.expect.answerIncludes ? { ...t, oracle: { ...t.oracle, answer: 'All done as asked.' } } : undefined,
      );
      const report = await runSuite({ suite: vague, agent: 'react', oracle: true });
      for (const task of vague.tasks) {
        expect(criterionOf(report, task.id, 'facts')?.pass, task.id).toBe(false);
        expect(criterionOf(report, task.id, 'state')?.pass ?? true, `${task.id}: the database is still right`).toBe(true);
      }
    });

    it(`${name}: skipping the tool calls fails the state scorer of every task that changes the database`, async () => {
      // The tasks whose expected database is not the one they start from.
      const changing = withOracles(suite, (t) => {
        const verdict = t.expect.db === undefined ? undefined : judgeState(t.expect.db, suite.domain.db());
        return verdict && !verdict.pass ? { ...t, oracle: noCalls(t.oracle) } : undefined;
      });
      expect(changing.tasks.length).toBeGreaterThanOrEqual(4);
      const report = await runSuite({ suite: changing, agent: 'react', oracle: true });
      for (const task of changing.tasks) expect(criterionOf(report, task.id, 'state')?.pass, task.id).toBe(false);
    });
  }

  it('catches a booking on the wrong flight, an approval that should have been refused, and a forbidden change', async () => {
    const travel = builtinSuites.travel;
    const byId = (id: string) => travel.tasks.find((t) => t.id === id) as AnyTask;
    const cheapest = byId('book-cheapest');
    const wrongFlight: AnyTask = {
      ...cheapest,
      oracle: {
        ...cheapest.oracle,
        plan: [
          cheapest.oracle.plan[0]!,
          { ...cheapest.oracle.plan[1]!, calls: [{ name: 'book_flight', args: { flightId: 'TP105', passenger: 'Ada Byron' } }] },
        ],
      },
    };
    const approvedAnyway: AnyTask = { ...byId('book-denied'), approve: true };
    const basic = byId('change-basic-forbidden');
    const cancelledInstead: AnyTask = {
      ...basic,
      oracle: { ...basic.oracle, plan: [{ ...basic.oracle.plan[0]!, calls: [{ name: 'cancel_booking', args: { bookingId: 'B0002' } }] }] },
    };
    const report = await runSuite({
      suite: { ...travel, tasks: [wrongFlight, approvedAnyway, cancelledInstead] },
      agent: 'react',
      oracle: true,
    });
    expect(criterionOf(report, 'book-cheapest', 'state')?.reason).toContain('db.bookings.B1001.flightId is "TP105", expected "TP103"');
    expect(criterionOf(report, 'book-denied', 'state')).toMatchObject({ pass: false, reason: 'new bookings: B1001' });
    expect(criterionOf(report, 'change-basic-forbidden', 'state')?.reason).toContain('db.bookings.B0002.status is "cancelled"');
  });
});
