import { expect } from 'vitest';
import { phaseOf } from './kill-and-resume.js';
import { killPlans, type KillScenario } from './kill-everywhere.js';
import { betweenSiblingTools, midWave, waveAtKill } from './wave-at-kill.js';

/** Each prefix of a run's markers, as the wave stood there. */
const wavesAlong = (markers: readonly string[]) => markers.map((_, i) => waveAtKill(markers.slice(0, i + 1)));

/**
 * The `graph` scenario (child/graph-scenario.mjs): five steps, two at a time, killed in the
 * planner, all through the parallel waves, and in the replanner.
 */
export const graphKills: KillScenario = {
  name: 'graph',
  checkBaseline(baseline) {
    expect(baseline.output).toBe(
      [
        'a: record alpha => ok:alpha',
        'b: record beta and its echo => ok:beta-echo; ok:beta',
        'c: record gamma from record alpha => ok:alpha => ok:gamma; ok:gamma-check',
        'd: record delta from record alpha => ok:alpha and record beta and its echo => ok:beta-echo; ok:beta => ok:delta',
        'e: report on c and d => ok:report',
      ].join(' | '),
    );
    expect(baseline.effects).toEqual(['a-t1c1', 'b-t1c1', 'b-t1c2', 'c-t1c1', 'c-t2c1', 'd-t1c1', 'e-t1c1']);
    expect(baseline.modelCalls).toBe(13);
    // The waves overlap: two steps run at once, and a step's tool finishes while a sibling's runs.
    const waves = wavesAlong(baseline.markers);
    expect(Math.max(...waves.map((w) => w.runningSteps.length))).toBe(2);
    expect(waves.some(betweenSiblingTools)).toBe(true);
  },
  // Every marker before and after the steps, one in two while they run.
  plans: (markers) => {
    const first = markers.findIndex((l) => l.startsWith('model:executor'));
    const last = markers.findLastIndex((l) => l.includes('executor'));
    return killPlans(markers, (i) => i > first && i <= last && (i - first) % 2 === 1);
  },
  checkSpread(outcomes) {
    const killed = outcomes.filter((o) => o.killedAfter);
    const phases = killed.map((o) => phaseOf(o.killedAfter ?? ''));
    const count = (...of: string[]) => phases.filter((p) => of.includes(p)).length;
    const waves = killed.map((o) => waveAtKill(o.killedMarkers));
    expect({
      killed: killed.length >= 20,
      planner: count('planner') >= 2,
      steps: count('executor', 'tool') >= 15,
      replanner: count('replanner') >= 2,
      midWave: waves.filter(midWave).length >= 8,
      betweenSiblingTools: waves.filter(betweenSiblingTools).length >= 2,
      killedAgainMidResume: outcomes.filter((o) => o.secondKilledAfter).length >= 4,
    }).toEqual({
      killed: true,
      planner: true,
      steps: true,
      replanner: true,
      midWave: true,
      betweenSiblingTools: true,
      killedAgainMidResume: true,
    });
  },
};
