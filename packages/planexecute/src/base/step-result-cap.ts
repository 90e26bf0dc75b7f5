import type { Middleware } from '@replan/core';
import { headTailPreview } from '@replan/core/agent-kit';
import type { ContextItem } from './context-policy.js';

/**
 * The largest step result the replanner is shown whole, in characters: the `maxTokens` (about 4
 * characters each) of an `offloadToolResults()` among its middleware (checked when it was made),
 * or undefined (no cap).
 */
export function stepResultsCap(middleware: readonly Middleware[] | undefined): number | undefined {
  for (const m of middleware ?? []) {
    const max = (m as { maxTokens?: unknown }).maxTokens;
    if (m.name === 'offloadToolResults' && typeof max === 'number') return max * 4;
  }
  return undefined;
}

/**
 * A completed step as the replanner is shown it: a result longer than `maxChars` as its head and
 * tail with a note (the shape of an offloaded tool result). The session keeps it whole, and a
 * later step that names it by `ref` (`$2`, `$search_a`) is given it in full, so the note says that.
 */
export function cappedStepItem<T extends ContextItem>(item: T, maxChars: number | undefined, ref: string, graph: boolean): T {
  if (maxChars === undefined || item.result === undefined || item.result.length <= maxChars) return item;
  const how = graph
    ? `The whole result is kept: a new step that lists "${ref.slice(1)}" in dependsOn and writes ${ref} in its task is given it in full.`
    : `The whole result is kept: a later step that writes ${ref} in its text is shown it in full.`;
  return { ...item, result: headTailPreview(item.result, maxChars, () => how) };
}
