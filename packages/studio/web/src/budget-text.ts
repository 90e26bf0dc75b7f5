import type { BudgetAmountsView, PlanForecastView, RunBudgetView } from './wire-types.js';

/**
 * Budgets and forecasts as the studio says them: a plan review's forecast against what the run
 * has left, and a run's budget as it ended. Kept apart from the DOM so the wording is checked
 * without a browser.
 */

const AMOUNTS = ['tokens', 'cost', 'modelCalls', 'timeMs'] as const;
type Amount = (typeof AMOUNTS)[number];
const NAMES: Record<Amount, string> = { tokens: 'tokens', cost: 'cost', modelCalls: 'model calls', timeMs: 'time' };

/** `1,200` tokens, `0.0123` cost, `4` calls, `2.5 s`. */
function amount(a: Amount, n: number): string {
  if (a === 'cost') return n.toPrecision(3);
  if (a === 'timeMs') return `${(n / 1000).toLocaleString('en', { maximumFractionDigits: 1 })} s`;
  return Math.round(n).toLocaleString('en');
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

function amountsOf(value: unknown): BudgetAmountsView {
  const out: Record<string, number> = {};
  if (isObject(value)) for (const a of AMOUNTS) if (typeof value[a] === 'number' && Number.isFinite(value[a])) out[a] = value[a];
  return out;
}

/** A plan review payload's `forecast`, read defensively (it is stored JSON), or `undefined`. */
export function readForecast(value: unknown): PlanForecastView | undefined {
  if (!isObject(value) || typeof value.fits !== 'boolean') return undefined;
  const count = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  return {
    estimate: amountsOf(value.estimate),
    available: amountsOf(value.available),
    fits: value.fits,
    unestimated: count(value.unestimated),
    steps: count(value.steps),
  };
}

/**
 * `~1,700 tokens of 3,985 available · ~2 model calls of 8 available`, then the steps without an
 * estimate; an amount no step estimated shows what is available only.
 */
export function forecastText(f: PlanForecastView): string {
  const parts = AMOUNTS.flatMap((a) => {
    const est = f.estimate[a];
    const avail = f.available[a];
    if (est === undefined && avail === undefined) return [];
    if (est === undefined) return [`${NAMES[a]}: ${amount(a, avail as number)} available, not estimated`];
    return [`~${amount(a, est)} ${NAMES[a]}${avail === undefined ? '' : ` of ${amount(a, avail)} available`}`];
  });
  const unestimated = f.unestimated ? [`${f.unestimated} of ${f.steps} steps without an estimate`] : [];
  return [...parts, ...unestimated].join(' · ');
}

/** `tokens 1,234 used of 5,000 (3,766 left, 1,000 kept for the answer) · model calls 4 used of 10 (6 left)`. */
export function budgetText(b: RunBudgetView): string {
  return AMOUNTS.flatMap((a) => {
    const limit = b.limits[a];
    if (limit === undefined) return [];
    const kept = b.reserve?.[a] ? `, ${amount(a, b.reserve[a])} kept for the answer` : '';
    return [`${NAMES[a]} ${amount(a, b.used[a] ?? 0)} used of ${amount(a, limit)} (${amount(a, b.left[a] ?? 0)} left${kept})`];
  }).join(' · ');
}

/** What the run does when a limit runs out, said after the budget. */
export const exhaustedText = (b: RunBudgetView): string =>
  b.onExhausted === 'answer' ? 'When it runs low: answer from the steps done' : 'When it runs out: stop';
