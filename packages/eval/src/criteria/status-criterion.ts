import type { RunStatus } from '@replan/core';
import type { RunObservation } from '../run/run-observation.js';
import { type CriterionResult, failed, passed } from './criterion-result.js';

/** The run ended with the expected status. */
export function judgeStatus(expected: RunStatus, run: RunObservation): CriterionResult {
  return run.status === expected
    ? passed('status', `ended ${expected}`)
    : failed('status', `expected status ${expected}, the run ended ${run.status}${blockedBy(run)}`);
}

/** Who blocked a run, so a failed case says which guardrail to look at. */
function blockedBy(run: RunObservation): string {
  const g = run.guardrail;
  if (!g) return '';
  return ` (${g.stage} guardrail ${g.name}${g.reason ? `: ${g.reason}` : ''})`;
}
