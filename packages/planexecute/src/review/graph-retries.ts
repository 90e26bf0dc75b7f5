import { renameReferences } from '../base/step-references.js';
import { taskRetryKey } from './retry-key.js';
import type { SucceededStep } from './plan-history.js';

interface IdStep {
  readonly id?: unknown;
  readonly task?: unknown;
  readonly dependsOn?: unknown;
}

/**
 * Which failed approved graph steps were issued again, as approved-id → retry-id. A graph
 * revision never reuses an id that ran, so the replanner can only retry a failed step under a new
 * id; without this, review would see every revision after a failure drop a step and add another.
 * A retry is a step with an id the approved plan does not have and the same retry key (its task,
 * as the stall count compares) as the failed step: one that already succeeded since the approval
 * (`succeededSince`), else one in the revision. Each step retries at most one failed step.
 */
export function graphRetries(
  approved: readonly unknown[],
  failedSince: readonly string[],
  succeededSince: readonly SucceededStep[],
  revision: readonly unknown[],
): Map<string, string> {
  const approvedIds = new Set(approved.map((s) => (s as IdStep | null)?.id));
  const failed = new Set(failedSince);
  // Executed graph steps keep the task as `step`; revision steps as `task`.
  const candidates = [
    ...succeededSince.map((s) => ({ id: s.id, task: s.step })),
    ...revision.map((s) => ({ id: (s as IdStep | null)?.id, task: (s as IdStep | null)?.task })),
  ].filter((c): c is { id: string; task: unknown } => typeof c.id === 'string' && !approvedIds.has(c.id));
  const used = new Set<string>();
  const retries = new Map<string, string>();
  for (const step of approved) {
    const id = (step as IdStep | null)?.id;
    if (typeof id !== 'string' || !failed.has(id)) continue;
    const key = taskRetryKey(step);
    const retry = candidates.find((c) => !used.has(c.id) && taskRetryKey(c) === key);
    if (!retry) continue;
    used.add(retry.id);
    retries.set(id, retry.id);
  }
  return retries;
}

/**
 * An approved graph step as it reads once its failed steps are replaced by their retries: its id,
 * its dependencies and the `$id` references in its task re-pointed. A revision that re-points
 * dependents to a retry then compares equal to the approved plan.
 */
export function withRetries(step: unknown, retries: ReadonlyMap<string, string>): unknown {
  if (!retries.size || step === null || typeof step !== 'object') return step;
  const s = step as IdStep;
  const rename = (id: unknown) => (typeof id === 'string' ? (retries.get(id) ?? id) : id);
  return {
    ...s,
    id: rename(s.id),
    ...(typeof s.task === 'string' ? { task: renameReferences(s.task, retries) } : {}),
    ...(Array.isArray(s.dependsOn) ? { dependsOn: s.dependsOn.map(rename) } : {}),
  };
}
