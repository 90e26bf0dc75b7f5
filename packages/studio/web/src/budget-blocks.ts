import { budgetText, exhaustedText } from './budget-text.js';
import { h } from './dom.js';
import type { SessionDigest } from './wire-types.js';

/** The last run's budget as it ended (used, limit, left per limit), when it had limits. */
export function budgetBlock(d: SessionDigest): HTMLElement | null {
  if (!d.budget) return null;
  return h(
    'p',
    { class: 'block run-budget', attrs: { 'data-on-exhausted': d.budget.onExhausted } },
    h('strong', null, "Last run's budget: "),
    `${budgetText(d.budget)} · ${exhaustedText(d.budget)}`,
  );
}

/**
 * A run that completed with an answer from partial work (`onExhausted: 'answer'`): said above the
 * answer, with the steps it did not run, so the answer is not read as the whole work.
 */
export function partialBlock(d: SessionDigest): HTMLElement | null {
  if (!d.partial) return null;
  return h(
    'div',
    { class: 'block block-warn partial-answer', attrs: { 'data-partial': '' } },
    h('div', { class: 'block-head' }, 'Partial answer: the budget ran low, so the answer below is from the steps done'),
    d.partial.notRun.length
      ? h('div', null, 'Not run:', h('ul', { class: 'not-run' }, ...d.partial.notRun.map((step) => h('li', null, step))))
      : h('div', null, 'Every planned step ran.'),
  );
}
