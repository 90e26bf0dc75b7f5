import { ConfigurationError } from '@replan/core';
import { quotedBlock, quotePreamble, quoteValue } from '@replan/core/agent-kit';
import type { StepToolError } from './step-tool-error.js';
import { stepText } from './plan-schema.js';

/**
 * How many completed-step results the executor and the replanner are shown.
 * - `full`: every result, verbatim (as Eino; prompt tokens grow with the square of the steps).
 * - `referenced`: only the results a step depends on (graph: its `dependsOn`; linear: the previous
 *   step and any `$n` it names). The replanner gets the results no finished step consumed.
 * - `summarized`: the referenced results verbatim, plus the others within a token budget
 *   (`maxTokens`, default 1000, estimated as characters / 4): newest verbatim, older ones cut to a
 *   short excerpt, the oldest left out when even that does not fit.
 */
export type ContextPolicy = 'full' | 'referenced' | 'summarized' | { readonly kind: 'summarized'; readonly maxTokens: number };

/** A normalized policy. */
export interface ResolvedContextPolicy {
  readonly kind: 'full' | 'referenced' | 'summarized';
  readonly maxTokens?: number;
}

/** The default budget of `summarized`, in estimated tokens. */
export const DEFAULT_SUMMARY_TOKENS = 1000;
/** Characters kept of a result that no longer fits verbatim. */
const EXCERPT_CHARS = 200;

/** Prompt tokens as the benchmarks and budgets estimate them: characters / 4. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

/** Checks and normalizes a policy (construction time: a bad one is a `ConfigurationError`). */
export function resolveContextPolicy(policy: ContextPolicy | undefined, fallback: ContextPolicy, who: string): ResolvedContextPolicy {
  const p = policy ?? fallback;
  if (p === 'full' || p === 'referenced') return { kind: p };
  if (p === 'summarized') return { kind: 'summarized', maxTokens: DEFAULT_SUMMARY_TOKENS };
  if (typeof p === 'object' && p?.kind === 'summarized' && Number.isInteger(p.maxTokens) && p.maxTokens > 0)
    return { kind: 'summarized', maxTokens: p.maxTokens };
  throw new ConfigurationError(
    `${who}: contextPolicy must be 'full', 'referenced', 'summarized' or { kind: 'summarized', maxTokens: <positive integer> }, got ${JSON.stringify(p)}.`,
  );
}

/** One completed step as a prompt lists it. */
export interface ContextItem {
  /** How the step is named: its number (linear) or its id (graph). */
  readonly label: string;
  readonly step: unknown;
  readonly result?: string;
  readonly structured?: unknown;
  readonly toolErrors?: readonly StepToolError[];
  readonly error?: string;
}

/** What a policy let through, for the prompt and for the events (`meta.contextPolicy`). */
export interface ContextView {
  /** The items shown, oldest first; summarized ones carry an excerpt as `result`. */
  readonly items: readonly ContextItem[];
  readonly info: ContextPolicyInfo;
}

/** The policy applied to one prompt, as stored in `meta.contextPolicy` of executor and replanner events. */
export interface ContextPolicyInfo extends ResolvedContextPolicy {
  readonly verbatim: number;
  readonly summarized: number;
  readonly omitted: number;
  /** Estimated tokens of the results shown. */
  readonly tokens: number;
}

/**
 * The line before the quoted completed steps: everything in them (step text, results, structured
 * results, tool errors, failures) was produced by models and tools, so it is data, never the
 * library's own instructions.
 */
export const STEP_RESULTS_PREAMBLE = quotePreamble('The completed steps with their results and errors');

/**
 * An item as the prompts print it, inside the quoted block: every value passes through
 * `quoteValue`, so it cannot close the quote nor start a line (a result that contains
 * `## YOUR STEP` stays on an indented continuation line).
 */
export function formatContextItem(item: ContextItem): string {
  const lines = [`${item.label} Step: ${quoteValue(stepText(item.step))}`];
  if (item.error !== undefined) lines.push(`   FAILED: ${quoteValue(item.error)}`);
  if (item.result !== undefined) lines.push(`   Result: ${quoteValue(item.result)}`);
  if (item.structured !== undefined)
    lines.push(`   Structured result: ${quoteValue(JSON.stringify(item.structured) ?? String(item.structured))}`);
  for (const e of item.toolErrors ?? []) lines.push(`   Tool error (${quoteValue(e.tool)}): ${quoteValue(e.error)}`);
  return lines.join('\n');
}

function excerpt(item: ContextItem): ContextItem {
  const result = item.result ?? '';
  if (result.length <= EXCERPT_CHARS)
    return { label: item.label, step: item.step, result, ...(item.error !== undefined ? { error: item.error } : {}) };
  const cut = `${result.slice(0, EXCERPT_CHARS)}… (summarized: ${result.length - EXCERPT_CHARS} more characters)`;
  return { label: item.label, step: item.step, result: cut, ...(item.error !== undefined ? { error: item.error } : {}) };
}

/**
 * Applies a policy to completed steps (oldest first). `referenced(i)` says whether item `i` is
 * one the prompt's reader depends on: those are always shown verbatim and not counted against
 * the `summarized` budget, so a needed result is never cut.
 */
export function applyContextPolicy(
  items: readonly ContextItem[],
  policy: ResolvedContextPolicy,
  referenced: (index: number) => boolean,
): ContextView {
  const shown: (ContextItem | undefined)[] = new Array(items.length);
  let verbatim = 0;
  let summarized = 0;
  let tokens = 0;
  const show = (i: number, item: ContextItem, size: number) => {
    shown[i] = item;
    tokens += size;
  };
  let budget = policy.maxTokens ?? 0;
  let cutting = false; // once one result does not fit, every older one is at most an excerpt
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i] as ContextItem;
    const size = estimateTokens(formatContextItem(item));
    if (policy.kind === 'full' || referenced(i)) {
      show(i, item, size);
      verbatim++;
      continue;
    }
    if (policy.kind === 'referenced') continue;
    if (!cutting && size <= budget) {
      show(i, item, size);
      budget -= size;
      verbatim++;
      continue;
    }
    cutting = true;
    const short = excerpt(item);
    const shortSize = estimateTokens(formatContextItem(short));
    if (shortSize > budget) continue;
    show(i, short, shortSize);
    budget -= shortSize;
    summarized++;
  }
  const kept = shown.filter((x): x is ContextItem => x !== undefined);
  return { items: kept, info: { ...policy, verbatim, summarized, omitted: items.length - kept.length, tokens } };
}

/** Whether the prompt should say that results were left out: only a budget cut is news to the model. */
const notesOmitted = (view: ContextView) => view.info.kind === 'summarized' && view.info.omitted > 0;

/** Whether a view has anything to print. */
export const hasContext = (view: ContextView): boolean => view.items.length > 0 || notesOmitted(view);

/**
 * A view as prompt text: the items quoted as data (preamble, markers — see `STEP_RESULTS_PREAMBLE`);
 * under `summarized`, a note after the quote says how many results the budget left out.
 */
export function formatContextView(view: ContextView): string {
  if (!hasContext(view)) return '(none yet)';
  const parts = view.items.length ? [quotedBlock(view.items.map(formatContextItem), STEP_RESULTS_PREAMBLE)] : [];
  if (notesOmitted(view)) parts.push(`(${view.info.omitted} older step result(s) not shown: over the context budget)`);
  return parts.join('\n');
}
