import { expect } from 'vitest';
import { killAndResume, mapLimit, phaseOf, runBaseline, type KillPlan } from './kill-and-resume.js';
import type { TargetFactory } from './store-target.js';

/** Kill points run at once (each is a few short processes, mostly waiting on start-up and I/O). */
const PARALLEL = 4;

/**
 * The kill points: every marker of an uninterrupted run — each model call, each tool's start
 * and side effect, both sides of every store write — except two in three of the composite
 * agents' cursor writes (alike, and each kill point costs a few process starts). One kill
 * point in four also kills the first resuming process, as soon as it prints a later marker:
 * not frozen, so that kill lands wherever the process is, in the middle of a write included.
 */
export function killPlans(markers: readonly string[]): KillPlan[] {
  let cursors = 0;
  const points = markers.flatMap((label, i) => (!label.endsWith(':cursor') || cursors++ % 3 === 0 ? [i + 1] : []));
  return points.map((killAt, i) => (i % 4 === 3 ? { killAt, secondKillOn: 3 + (killAt % 13) } : { killAt }));
}

/** Kills the `steps` scenario at every kill point and checks each run against an uninterrupted one. */
export async function killEverywhere(newTarget: TargetFactory): Promise<void> {
  const baseline = await runBaseline(newTarget);
  expect(baseline.output).toBe('record alpha -> ok:alpha | record beta and gamma -> ok:beta; ok:gamma | summarise -> ok:summary; ok:audit');
  expect(baseline.effects).toEqual(['s1t1c1', 's2t1c1', 's2t1c2', 's3t1c1', 's3t2c1']);
  expect(baseline.modelCalls).toBe(11);

  const outcomes = await mapLimit(killPlans(baseline.markers), PARALLEL, (plan) => killAndResume(newTarget, plan, baseline));

  expect(outcomes.filter((o) => o.killedAfter).length).toBeGreaterThanOrEqual(50);
  const phases = outcomes.map((o) => phaseOf(o.killedAfter ?? 'not killed'));
  const count = (phase: string) => phases.filter((p) => p === phase).length;
  expect({ planner: count('planner') >= 3, executor: count('executor') >= 10, tool: count('tool') >= 10, replanner: count('replanner') >= 6 }).toEqual({
    planner: true,
    executor: true,
    tool: true,
    replanner: true,
  });
  expect(outcomes.filter((o) => o.secondKilledAfter).length).toBeGreaterThanOrEqual(8);

  for (const o of outcomes)
    expect(
      { killedAfter: o.killedAfter, output: o.output, state: o.state, events: o.events, effects: o.effects, problems: o.problems },
      `killed at marker ${o.plan.killAt} (${o.killedAfter})${o.secondKilledAfter ? `, then at "${o.secondKilledAfter}"` : ''}`,
    ).toEqual({
      killedAfter: o.killedAfter,
      output: baseline.output,
      state: baseline.state,
      events: baseline.events,
      effects: baseline.effects, // every completed tool call's side effect, exactly once
      problems: [],
    });
}
