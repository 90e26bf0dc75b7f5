import { ConfigurationError } from '@replan/core';
import { headTailPreview } from '@replan/core/agent-kit';
import type { ContextItem } from './context-policy.js';

/** The largest step result the replanner is shown whole, in tokens (about 4 characters each). */
export interface StepResultsOptions {
  readonly maxTokens: number;
}

/** Checks the option (construction time); returns the largest result shown whole, in characters. */
export function resolveStepResults(options: StepResultsOptions | undefined, who: string): number | undefined {
  if (options === undefined) return undefined;
  const max = options.maxTokens;
  if (!Number.isInteger(max) || max < 16)
    throw new ConfigurationError(`${who}: stepResults.maxTokens must be an integer of at least 16 (tokens), got ${max}.`);
  return max * 4;
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
