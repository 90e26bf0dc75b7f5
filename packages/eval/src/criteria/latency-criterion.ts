import type { RunObservation } from '../run/run-observation.js';
import { type CriterionResult, failed, passed } from './criterion-result.js';

/** The run took at most `maxLatencyMs` of wall-clock time. */
export function judgeLatency(maxLatencyMs: number, run: RunObservation): CriterionResult {
  const took = Math.round(run.latencyMs);
  return run.latencyMs <= maxLatencyMs
    ? passed('latency', `took ${took} ms ≤ ${maxLatencyMs} ms`)
    : failed('latency', `took ${took} ms > ${maxLatencyMs} ms`, Math.max(0, Math.min(1, maxLatencyMs / run.latencyMs)));
}
