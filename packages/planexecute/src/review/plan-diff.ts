import { withRetries } from './graph-retries.js';

/** One step a revision rewrote: as the approved plan had it, and as the revision has it. */
export interface PlanStepChange {
  readonly before: unknown;
  readonly after: unknown;
}

/**
 * What a revision changes in the approved steps still to run. Linear plans are compared by step
 * content (a rewritten step in the place of an approved one is `changed`); graph plans by step id
 * (same id, other task or dependencies: `changed`), a failed step retried under a new id with the
 * same task being the same step (see `graphRetries`).
 */
export interface PlanDiff {
  readonly added: readonly unknown[];
  readonly removed: readonly unknown[];
  readonly changed: readonly PlanStepChange[];
}

/** True when the diff changes nothing. */
export const isEmptyDiff = (diff: PlanDiff): boolean => !diff.added.length && !diff.removed.length && !diff.changed.length;

// A step's estimate says what it may cost, not what it does: a revision that only re-estimates changes nothing.
const contentOf = (step: unknown): string => JSON.stringify(withoutEstimate(step)) ?? String(step);
const withoutEstimate = (step: unknown): unknown => {
  if (step === null || typeof step !== 'object' || !('estimate' in step)) return step;
  const { estimate: _estimate, ...rest } = step as Record<string, unknown>;
  return rest;
};
const idOf = (step: unknown): string | undefined => {
  const id = (step as { id?: unknown } | null)?.id;
  return typeof id === 'string' ? id : undefined;
};

/**
 * Graph plans: the diff from `before` (the approved steps still to run) to `after` (the revision's
 * steps) by step id; `retries` maps failed approved ids to their retries' ids (`graphRetries`), and
 * approved steps are compared as their retries re-point them, reported as they were approved.
 */
export function diffById(before: readonly unknown[], after: readonly unknown[], retries: ReadonlyMap<string, string>): PlanDiff {
  const old = new Map(before.map((s) => [idOf(withRetries(s, retries)), s]));
  const ids = new Set(after.map(idOf));
  const added: unknown[] = [];
  const changed: PlanStepChange[] = [];
  for (const step of after) {
    const was = old.get(idOf(step));
    if (was === undefined) added.push(step);
    else if (contentOf(withRetries(was, retries)) !== contentOf(step)) changed.push({ before: was, after: step });
  }
  return { added, removed: before.filter((s) => !ids.has(idOf(withRetries(s, retries)))), changed };
}

/** Linear plans: the longest common run of equal steps is kept; in each gap, steps paired by place are `changed`. */
export function diffByContent(before: readonly unknown[], after: readonly unknown[]): PlanDiff {
  const a = before.map(contentOf);
  const b = after.map(contentOf);
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      (lcs[i] as number[])[j] = a[i] === b[j] ? (lcs[i + 1]?.[j + 1] ?? 0) + 1 : Math.max(lcs[i + 1]?.[j] ?? 0, lcs[i]?.[j + 1] ?? 0);
  const added: unknown[] = [];
  const removed: unknown[] = [];
  const changed: PlanStepChange[] = [];
  let gapRemoved: unknown[] = [];
  let gapAdded: unknown[] = [];
  const closeGap = () => {
    const paired = Math.min(gapRemoved.length, gapAdded.length);
    for (let k = 0; k < paired; k++) changed.push({ before: gapRemoved[k], after: gapAdded[k] });
    removed.push(...gapRemoved.slice(paired));
    added.push(...gapAdded.slice(paired));
    gapRemoved = [];
    gapAdded = [];
  };
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      closeGap();
      i++;
      j++;
    } else if (j < b.length && (i >= a.length || (lcs[i]?.[j + 1] ?? 0) >= (lcs[i + 1]?.[j] ?? 0))) gapAdded.push(after[j++]);
    else gapRemoved.push(before[i++]);
  }
  closeGap();
  return { added, removed, changed };
}

/** Graph plans: the approved steps whose id (or whose retry's id, see `graphRetries`) has not succeeded since the approval. */
export function unfinishedById(
  approved: readonly unknown[],
  succeededSince: readonly { readonly id?: string }[],
  retries: ReadonlyMap<string, string>,
): unknown[] {
  const done = new Set(succeededSince.map((s) => s.id));
  return approved.filter((s) => !done.has(idOf(s)) && !done.has(retries.get(idOf(s) ?? '')));
}

/** Linear plans: the approved steps less one content-equal step for each step that succeeded since the approval. */
export function unfinishedByContent(approved: readonly unknown[], succeededSince: readonly { readonly step: unknown }[]): unknown[] {
  const left = [...approved];
  for (const done of succeededSince) {
    const at = left.findIndex((s) => contentOf(s) === contentOf(done.step));
    if (at >= 0) left.splice(at, 1);
  }
  return left;
}
