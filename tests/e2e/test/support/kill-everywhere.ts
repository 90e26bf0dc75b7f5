import { expect } from 'vitest';
import {
  killAndResume,
  mapLimit,
  type Baseline,
  type KillOutcome,
  type KillPlan,
  runBaseline,
  type RunScenario,
} from './kill-and-resume.js';
import type { TargetFactory } from './store-target.js';

/** Kill points run at once (each is a few short processes, mostly waiting on start-up and I/O). */
const PARALLEL = 4;

/** A child scenario to kill everywhere: what its uninterrupted run must leave, where to kill, where the kills must have landed. */
export interface KillScenario {
  readonly name: RunScenario;
  checkBaseline(baseline: Baseline): void;
  /** The kill points, from the markers of the uninterrupted run. */
  plans(markers: readonly string[]): KillPlan[];
  /** Checks the kills landed where the scenario needs them (labels as the killed processes printed them). */
  checkSpread(outcomes: readonly KillOutcome[]): void;
}

/**
 * The kill points: every marker of an uninterrupted run — each model call, each tool's start
 * and side effect, both sides of every store write — except two in three of the composite
 * agents' cursor writes (alike, and each kill point costs a few process starts), and those `skip`
 * leaves out. One kill point in four also kills the first resuming process, as soon as it prints
 * a later marker: not frozen, so that kill lands wherever the process is, in the middle of a
 * write included.
 */
export function killPlans(markers: readonly string[], skip: (index: number) => boolean = () => false): KillPlan[] {
  let cursors = 0;
  const points = markers.flatMap((label, i) => (!skip(i) && (!label.endsWith(':cursor') || cursors++ % 3 === 0) ? [i + 1] : []));
  return points.map((killAt, i) => (i % 4 === 3 ? { killAt, secondKillOn: 3 + (killAt % 13) } : { killAt }));
}

/** Kills a scenario at every kill point and checks each run against an uninterrupted one. */
export async function killEverywhere(newTarget: TargetFactory, scenario: KillScenario): Promise<void> {
  const baseline = await runBaseline(newTarget, scenario.name);
  scenario.checkBaseline(baseline);

  const outcomes = await mapLimit(scenario.plans(baseline.markers), PARALLEL, (plan) => killAndResume(newTarget, plan, baseline));
  scenario.checkSpread(outcomes);

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
