import type { RunObservation } from '../run/run-observation.js';
import { type CriterionResult, failed, passed } from './criterion-result.js';

const money = (n: number) => `$${n.toFixed(6).replace(/0{1,4}$/, '')}`;

/** The run cost at most `maxCost` (`RunResult.cost`); unpriced model calls are named, since they count as 0. */
export function judgeCost(maxCost: number, run: RunObservation): CriterionResult {
  const unpriced = run.unpricedModelCalls
    ? ` (${run.unpricedModelCalls} model call(s) unpriced: give the Runner prices for their models)`
    : '';
  return run.cost <= maxCost
    ? passed('cost', `cost ${money(run.cost)} ≤ ${money(maxCost)}${unpriced}`)
    : failed('cost', `cost ${money(run.cost)} > ${money(maxCost)}${unpriced}`, Math.max(0, Math.min(1, maxCost / run.cost)));
}
