import { BudgetExceededError } from '../errors/run-errors.js';
import { addUsage, emptyUsage, type Usage } from '../models/usage.js';

/** Budgets for one run (or resume). Exceeding one ends the run `budget_exceeded`, resumable. */
export interface RunLimits {
  /** Most model calls this run may make. */
  readonly maxModelCalls?: number;
  /** Most input + output tokens this run may use; checked before each model call. */
  readonly maxTokens?: number;
  /** Wall-clock limit for the run; in-flight model and tool calls are aborted. */
  readonly timeoutMs?: number;
  /** Most money this run may spend, priced by `prices` (per model id). */
  readonly maxCost?: number;
  /** USD (or any unit) per million tokens, per model id; used with `maxCost`. */
  readonly prices?: Readonly<Record<string, { readonly inputPerMillion: number; readonly outputPerMillion: number }>>;
}

/** Counts a run's model calls, tokens and cost against its limits. */
export class RunBudget {
  modelCalls = 0;
  usage: Usage = emptyUsage();
  cost = 0;

  constructor(readonly limits: RunLimits = {}) {}

  /** Throws `BudgetExceededError` when another model call would break a limit. */
  beforeModelCall(): void {
    const { maxModelCalls, maxTokens, maxCost } = this.limits;
    if (maxModelCalls !== undefined && this.modelCalls >= maxModelCalls)
      throw new BudgetExceededError('maxModelCalls', maxModelCalls, this.modelCalls);
    const tokens = this.usage.inputTokens + this.usage.outputTokens;
    if (maxTokens !== undefined && tokens >= maxTokens) throw new BudgetExceededError('maxTokens', maxTokens, tokens);
    if (maxCost !== undefined && this.cost >= maxCost) throw new BudgetExceededError('maxCost', maxCost, this.cost);
    this.modelCalls++;
  }

  recordUsage(modelId: string, usage: Usage | undefined): void {
    if (!usage) return;
    this.usage = addUsage(this.usage, usage);
    const price = this.limits.prices?.[modelId];
    if (price)
      this.cost += (usage.inputTokens * price.inputPerMillion + usage.outputTokens * price.outputPerMillion) / 1e6;
  }
}
