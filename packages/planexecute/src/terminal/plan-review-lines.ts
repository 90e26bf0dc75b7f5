import type { PlanDiff } from '../review/plan-diff.js';
import { stepText } from '../base/plan-schema.js';
import { stepToolsOf } from '../grants/step-tools.js';
import { clip, type TerminalStyle } from './terminal-style.js';
import type { PlanForecast } from '../budget/plan-forecast.js';

/** What the tree shows of a pending plan review (a `plan-review` event kind). */
export interface PendingReview {
  readonly interruptId: string;
  readonly role: 'planner' | 'replanner';
  readonly plan: unknown;
  readonly diff?: PlanDiff;
  readonly reason?: string;
  readonly forecast?: PlanForecast;
}

/**
 * What a step's approval grants (`review.grants`), e.g. ` · may call book {"train":"Night train"}`:
 * a reviewer sees which calls approving the plan lets run unasked. Empty for a step naming no tools.
 */
export function grantNote(step: unknown): string {
  const { tools, args } = stepToolsOf(step);
  if (!tools.length) return '';
  return ` · may call ${tools.map((t) => (args[t] ? `${t} ${JSON.stringify(args[t])}` : t)).join(', ')}`;
}

/** A step as the tree shows it: `id. task` (graph), the task of a linear step with tools, else its text; then what it may call. */
export const stepLabel = (step: unknown): string => {
  const s = step as { id?: unknown; task?: unknown } | null;
  if (typeof s?.id === 'string' && typeof s.task === 'string') return `${s.id}. ${s.task}${grantNote(step)}`;
  return typeof s?.task === 'string' && grantNote(step) ? `${s.task}${grantNote(step)}` : stepText(step);
};

/**
 * The lines of a pending plan review: why it waits, a revision's diff (`+` added, `-` removed,
 * `~` rewritten), and how to answer it — the interrupt id and the three answer shapes — so a
 * person reading a log knows what to send to `resume` without reading the docs.
 */
export function pendingReviewLines(review: PendingReview, s: TerminalStyle): string[] {
  const what = review.role === 'planner' ? 'the plan' : 'the revised plan';
  const lines = [`${s.yellow('├─ Review')} ${what} ${s.dim(`(${review.role})`)}: the run waits for an answer`];
  if (review.reason) lines.push(`│   ${s.yellow('why')} ${clip(review.reason)}`);
  if (review.forecast) lines.push(`│   ${forecastLine(review.forecast, s)}`);
  const diff = review.diff;
  if (diff) {
    if (!diff.added.length && !diff.removed.length && !diff.changed.length)
      lines.push(`│   ${s.dim('no change to the approved steps still to run')}`);
    for (const step of diff.added) lines.push(`│   ${s.green('+')} ${clip(stepLabel(step))}`);
    for (const step of diff.removed) lines.push(`│   ${s.red('-')} ${clip(stepLabel(step))}`);
    for (const { before, after } of diff.changed) lines.push(`│   ${s.yellow('~')} ${clip(`${stepLabel(before)} → ${stepLabel(after)}`)}`);
  }
  lines.push(
    `│   answer ${s.bold(review.interruptId)} with one of:`,
    `│     { approve: true }`,
    `│     { edit: plan }  ${s.dim(`e.g. ${clip(JSON.stringify(review.plan) ?? '', 80)}`)}`,
    `│     { reject: "feedback for the ${review.role}" }`,
  );
  return lines;
}

const AMOUNT_NAMES = { tokens: 'tokens', cost: 'cost', modelCalls: 'model calls', timeMs: 'ms' } as const;

/** `forecast ~1200 tokens of 3000 available, 4 model calls of 8 (1 of 3 steps without an estimate)`, marked when it does not fit. */
export function forecastLine(f: PlanForecast, s: TerminalStyle): string {
  const parts = (Object.keys(AMOUNT_NAMES) as (keyof typeof AMOUNT_NAMES)[]).flatMap((a) => {
    const est = f.estimate[a];
    const avail = f.available[a];
    if (est === undefined && avail === undefined) return [];
    const n = (v: number) => (a === 'cost' ? `$${v.toFixed(4)}` : String(Math.round(v)));
    return [
      `${est === undefined ? '?' : `~${n(est)}`} ${AMOUNT_NAMES[a]} of ${avail === undefined ? 'unlimited' : `${n(avail)} available`}`,
    ];
  });
  const unknown = f.unestimated ? s.dim(` (${f.unestimated} of ${f.steps} steps without an estimate)`) : '';
  const head = f.fits ? s.green('forecast') : s.red('forecast: over budget');
  return `${head} ${parts.join(', ')}${unknown}`;
}
