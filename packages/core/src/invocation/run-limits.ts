import { BudgetExceededError } from '../errors/run-errors.js';
import type { ModelRequest } from '../models/chat-model.js';
import { addUsage, emptyUsage, type Usage } from '../models/usage.js';
import { estimateTokens, requestChars } from '../observe/request-size.js';
import { checkPriceTable, costOf, type PriceTable } from '../models/model-prices.js';
import { UsageTally, type UsageBreakdown } from '../models/usage-breakdown.js';

/** Budgets for one run (or resume). Exceeding one ends the run `budget_exceeded`, resumable. */
export interface RunLimits {
  /** Most model calls this run may make. */
  readonly maxModelCalls?: number;
  /** Most input + output tokens this run may use; checked before each model call. */
  readonly maxTokens?: number;
  /** Wall-clock limit for the run; in-flight model and tool calls are aborted. */
  readonly timeoutMs?: number;
  /**
   * Most money this run may spend, priced by `prices`. Checked before each call with the request's
   * estimated input size (about 4 characters a token): a call that would pass the budget is not made.
   */
  readonly maxCost?: number;
  /** Prices per model id for this run, over the runner's `prices` (model by model). */
  readonly prices?: PriceTable;
}

/** Where a model call was made, for the breakdown. */
export interface CallSite {
  readonly path: string;
  /** The work label's id (`ctx.withLabel`), when the call was made under one. */
  readonly label?: string | undefined;
  readonly latencyMs: number;
}

/** Counts a run's model calls, tokens and cost against its limits. */
export class RunBudget {
  modelCalls = 0;
  /** Tools this run started (a code step's inner calls included), as `RunResult.toolCalls`. */
  toolCalls = 0;
  usage: Usage = emptyUsage();
  cost = 0;
  readonly prices: PriceTable | undefined;
  private readonly byAgent = new UsageTally();
  private readonly byLabel = new UsageTally();

  constructor(
    readonly limits: RunLimits = {},
    runnerPrices?: PriceTable,
  ) {
    checkPriceTable(limits.prices, 'limits.prices');
    this.prices = runnerPrices && limits.prices ? { ...runnerPrices, ...limits.prices } : (limits.prices ?? runnerPrices);
  }

  /**
   * Throws `BudgetExceededError` when another model call would break a limit. With `maxCost`, the
   * request's estimated input (and `settings.maxTokens` of output, when set) is priced first.
   */
  beforeModelCall(modelId?: string, request?: ModelRequest): void {
    const { maxModelCalls, maxTokens, maxCost } = this.limits;
    if (maxModelCalls !== undefined && this.modelCalls >= maxModelCalls)
      throw new BudgetExceededError('maxModelCalls', maxModelCalls, this.modelCalls);
    const tokens = this.usage.inputTokens + this.usage.outputTokens;
    if (maxTokens !== undefined && tokens >= maxTokens) throw new BudgetExceededError('maxTokens', maxTokens, tokens);
    if (maxCost !== undefined) {
      const next = this.cost + this.estimate(modelId, request);
      if (this.cost >= maxCost || next > maxCost) throw new BudgetExceededError('maxCost', maxCost, next);
    }
    this.modelCalls++;
  }

  /** The price of a call's usage with this run's prices (0 for an unpriced model). */
  priceOf(modelId: string, usage: Usage | undefined): number {
    return costOf(this.prices?.[modelId], usage);
  }

  recordUsage(modelId: string, usage: Usage | undefined, site?: CallSite): void {
    const cost = this.priceOf(modelId, usage);
    if (usage) {
      this.usage = addUsage(this.usage, usage);
      this.cost += cost;
    }
    if (!site) return;
    this.byAgent.add(site.path, usage, cost, site.latencyMs);
    if (site.label !== undefined) this.byLabel.add(site.label, usage, cost, site.latencyMs);
  }

  /** A tool starts (no limit counts them: the breakdown does, by agent path and plan step). */
  recordToolCall(site: Omit<CallSite, 'latencyMs'>): void {
    this.toolCalls++;
    this.byAgent.addToolCall(site.path);
    if (site.label !== undefined) this.byLabel.addToolCall(site.label);
  }

  breakdown(): UsageBreakdown {
    return { byAgent: this.byAgent.toRecord(), byLabel: this.byLabel.toRecord() };
  }

  private estimate(modelId: string | undefined, request: ModelRequest | undefined): number {
    if (modelId === undefined || !request) return 0;
    const price = this.prices?.[modelId];
    if (!price) return 0;
    const input = estimateTokens(requestChars(request));
    return costOf(price, { inputTokens: input, outputTokens: request.settings?.maxTokens ?? 0 });
  }
}
