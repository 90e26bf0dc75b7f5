/**
 * What makes a step "the same step" when the replanner issues it again (a plan mode's `retryKey`):
 * a graph step's task (ids that ran are never reused, so a retry always has a new id), a linear
 * step's whole content. The stall count compares plans by it, and review matches a failed graph
 * step to its retry by it, so both agree on what a retry is.
 */
export function contentRetryKey(step: unknown): string {
  return JSON.stringify(step) ?? String(step);
}

/** A graph step's retry key: its task (see `contentRetryKey`). */
export function taskRetryKey(step: unknown): string {
  return contentRetryKey((step as { task?: unknown } | null)?.task);
}
