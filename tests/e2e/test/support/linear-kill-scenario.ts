import { expect } from 'vitest';
import { phaseOf } from './kill-and-resume.js';
import { killPlans, type KillScenario } from './kill-everywhere.js';

/** The linear `steps` scenario: three steps, killed at every marker (at least 50 points). */
export const linearKills: KillScenario = {
  name: 'steps',
  checkBaseline(baseline) {
    expect(baseline.output).toBe(
      'record alpha -> ok:alpha | record beta and gamma -> ok:beta; ok:gamma | summarise -> ok:summary; ok:audit',
    );
    expect(baseline.effects).toEqual(['s1t1c1', 's2t1c1', 's2t1c2', 's3t1c1', 's3t2c1']);
    expect(baseline.modelCalls).toBe(11);
  },
  plans: (markers) => killPlans(markers),
  checkSpread(outcomes) {
    expect(outcomes.filter((o) => o.killedAfter).length).toBeGreaterThanOrEqual(50);
    const phases = outcomes.map((o) => phaseOf(o.killedAfter ?? 'not killed'));
    const count = (phase: string) => phases.filter((p) => p === phase).length;
    expect({
      planner: count('planner') >= 3,
      executor: count('executor') >= 10,
      tool: count('tool') >= 10,
      replanner: count('replanner') >= 6,
    }).toEqual({
      planner: true,
      executor: true,
      tool: true,
      replanner: true,
    });
    expect(outcomes.filter((o) => o.secondKilledAfter).length).toBeGreaterThanOrEqual(8);
  },
};
