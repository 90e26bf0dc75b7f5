import type { PriceTable } from '../models/model-prices.js';

/** Budgets for one run (or resume). Exceeding one ends the run `budget_exceeded`, resumable. */
export interface RunLimits {
  /** Most model calls this run may make. */
  readonly maxModelCalls?: number;
  /**
   * Most input + output tokens this run may use. Before each model call the request's input is
   * estimated (about 4 characters a token): the call is made only when that input fits in what is
   * left, and its output is capped to the rest (`settings.maxTokens`; sent when below the request's
   * own, or at most 4,096 tokens for a request without one, as servers refuse a cap above what the
   * model can write). Calls in flight at once (parallel steps) hold their input and cap until they
   * end; a call that fits only once they end waits. The cap is exact; the input is an estimate, so a
   * provider whose tokenizer counts more than the estimate can pass the limit by that difference.
   */
  readonly maxTokens?: number;
  /** Wall-clock limit for the run; in-flight model and tool calls are aborted. */
  readonly timeoutMs?: number;
  /**
   * Most money this run may spend, priced by `prices`. As for `maxTokens`: a call is made only when
   * its estimated input, priced, fits in what is left, and its output is capped to the tokens the
   * rest buys at the model's output price (for a priced model).
   */
  readonly maxCost?: number;
  /** Prices per model id for this run, over the runner's `prices` (model by model). */
  readonly prices?: PriceTable;
  /**
   * What happens when the budget runs low. `'stop'` (default): the run ends `budget_exceeded` at a
   * limit, resumable. `'answer'`: once what is left of a limit falls to its `reserve`, no new step
   * starts (running steps stop at their next model call) and the plan–execute replanner answers from
   * the steps done, within the reserve: the run completes with `RunResult.partial: true` and
   * `notRun`. The reserve comes out of the limits, never on top of them. Needs a root agent that can
   * answer from partial work (a plan–execute agent with its own replanner); any other is refused
   * with a `ConfigurationError` at run start.
   */
  readonly onExhausted?: 'stop' | 'answer';
  /**
   * With `onExhausted: 'answer'`: what to keep for the answer, per limit that is set (a reserve for
   * a limit that is not set, or one at or above its limit, is a `ConfigurationError`). Default, for
   * each limit set: one model call; 1.5× the tokens, cost and time of the largest planner or
   * replanner call of the run so far (the answer's prompt is the replanner's, grown by the newest
   * results); 0 before the first of them.
   */
  readonly reserve?: BudgetAmounts;
}

/** Amounts of what a run's budget counts: tokens (input + output), cost, model calls, wall time. */
export interface BudgetAmounts {
  readonly tokens?: number;
  readonly cost?: number;
  readonly modelCalls?: number;
  readonly timeMs?: number;
}

/**
 * A run's budget as the planner and replanner see it (`budget` in their inputs): the limits that
 * are set, what the run used of them and what is left, and with `onExhausted: 'answer'` the
 * reserve kept for the answer. Only the limits that are set appear.
 */
export interface BudgetView {
  readonly limits: BudgetAmounts;
  readonly used: BudgetAmounts;
  readonly left: BudgetAmounts;
  readonly reserve?: BudgetAmounts;
  readonly onExhausted: 'stop' | 'answer';
}
