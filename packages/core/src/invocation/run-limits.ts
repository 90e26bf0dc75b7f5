import { BudgetExceededError, type BudgetKind } from '../errors/run-errors.js';
import { checkRunLimits, LIMIT_OF } from './run-limits-check.js';
import type { ModelRequest } from '../models/chat-model.js';
import { addUsage, emptyUsage, type Usage } from '../models/usage.js';
import { estimateTokens, requestChars } from '../observe/request-size.js';
import type { BudgetAmounts, BudgetView, RunLimits } from './budget-types.js';
export type { BudgetAmounts, BudgetView, RunLimits } from './budget-types.js';
import { CallsInFlight, outputCap, outputRoom, withOutputCap, type OutputRoom } from './output-room.js';
import { checkPriceTable, costOf, type PriceTable } from '../models/model-prices.js';
import { UsageTally, type UsageBreakdown } from '../models/usage-breakdown.js';

type Amount = keyof BudgetAmounts;
const AMOUNTS = Object.keys(LIMIT_OF) as Amount[];
const AMOUNT_OF = Object.fromEntries(AMOUNTS.map((a) => [LIMIT_OF[a], a])) as Record<BudgetKind, Amount>;
/** The default reserve is this many times the largest planner or replanner call so far. */
const RESERVE_GROWTH = 1.5;

/** Where a model call was made, for the breakdown. */
export interface CallSite {
  readonly path: string;
  /** The work label's id (`ctx.withLabel`), when the call was made under one. */
  readonly label?: string | undefined;
  readonly latencyMs: number;
  /** A planner or replanner turn (`operation: 'plan'`): the default reserve is sized from these. */
  readonly plan?: boolean;
}

/** Counts a run's model calls, tokens and cost against its limits. */
export class RunBudget {
  modelCalls = 0;
  /** Tools this run started (a code step's inner calls included), as `RunResult.toolCalls`. */
  toolCalls = 0;
  usage: Usage = emptyUsage();
  cost = 0;
  readonly prices: PriceTable | undefined;
  /** When the run (or resume) started: `timeoutMs` and the time figures count from here. */
  readonly startedAt = Date.now();
  private readonly byAgent = new UsageTally();
  private readonly byLabel = new UsageTally();
  // What sizes the default reserve and the token forecast (see `reserve`, `checkReserve`).
  private readonly largestPlanCall = { tokens: 0, cost: 0, latencyMs: 0 };
  private largestOutput = 0;
  /** The first refusal for the reserve: every work call after it is refused too (see `checkReserve`). */
  private reserveReached: { readonly kind: BudgetKind; readonly limit: number; readonly keep: number } | undefined;
  private answering = false;
  private readonly inFlight = new CallsInFlight();
  /** Refusals only for what calls in flight hold (see `whenRoom`). */
  private readonly heldBack = new WeakSet<Error>();

  constructor(
    readonly limits: RunLimits = {},
    runnerPrices?: PriceTable,
  ) {
    checkPriceTable(limits.prices, 'limits.prices');
    checkRunLimits(limits);
    this.prices = runnerPrices && limits.prices ? { ...runnerPrices, ...limits.prices } : (limits.prices ?? runnerPrices);
  }

  /**
   * Before a model call: throws `BudgetExceededError` when it would break a limit, else returns the
   * request to send — `request` itself, or with its output capped (`settings.maxTokens`, see
   * `capOutput`) so the call ends within `maxTokens` and `maxCost`.
   */
  beforeModelCall(modelId?: string, request?: ModelRequest): ModelRequest | undefined {
    const { maxModelCalls, maxTokens, maxCost } = this.limits;
    if (maxModelCalls !== undefined && this.modelCalls >= maxModelCalls)
      throw new BudgetExceededError('maxModelCalls', maxModelCalls, this.modelCalls);
    const tokens = this.usage.inputTokens + this.usage.outputTokens;
    if (maxTokens !== undefined && tokens >= maxTokens) throw new BudgetExceededError('maxTokens', maxTokens, tokens);
    if (maxCost !== undefined && this.cost >= maxCost) throw new BudgetExceededError('maxCost', maxCost, this.cost);
    // The reserve is checked on the request as the agent wrote it (its own output limit forecast), then capped.
    if (this.answering) this.checkAnswerFits(request);
    else if (this.answers) this.checkReserve(modelId, request);
    const sent = request && this.capOutput(modelId, request);
    this.modelCalls++;
    return sent;
  }

  /**
   * After the call of `sent` (as `beforeModelCall` returned it) ended, in any way: what it held of
   * the limits is released (its usage, if any, is recorded by `recordUsage`).
   */
  afterModelCall(sent: ModelRequest | undefined): void {
    if (sent) this.inFlight.release(sent);
  }

  /**
   * For an error `beforeModelCall` threw: when the call was refused only for what calls in flight
   * (parallel steps) may still spend, a promise that resolves when one of them ends — then ask
   * again; else undefined (a refusal that stands).
   */
  whenRoom(error: unknown): Promise<void> | undefined {
    return error instanceof Error && this.heldBack.has(error) ? this.inFlight.released() : undefined;
  }

  /** True with `onExhausted: 'answer'`. */
  get answers(): boolean {
    return this.limits.onExhausted === 'answer';
  }

  /** What the run used so far of each amount (time since `startedAt`). */
  used(): Required<BudgetAmounts> {
    const tokens = this.usage.inputTokens + this.usage.outputTokens;
    return { tokens, cost: this.cost, modelCalls: this.modelCalls, timeMs: Date.now() - this.startedAt };
  }

  /** The reserve per limit that is set (see `RunLimits.reserve`); empty unless `onExhausted: 'answer'`. */
  reserve(): BudgetAmounts {
    if (!this.answers) return {};
    const given = this.limits.reserve ?? {};
    const largest = this.largestPlanCall;
    const defaults: Required<BudgetAmounts> = {
      tokens: Math.ceil(largest.tokens * RESERVE_GROWTH),
      cost: largest.cost * RESERVE_GROWTH,
      modelCalls: 1,
      timeMs: Math.ceil(largest.latencyMs * RESERVE_GROWTH),
    };
    const out: Record<string, number> = {};
    for (const a of AMOUNTS) if (this.limits[LIMIT_OF[a]] !== undefined) out[a] = given[a] ?? defaults[a];
    return out;
  }

  /** The budget as the planner and replanner see it; undefined when the run has no limit. */
  view(): BudgetView | undefined {
    const set = AMOUNTS.filter((a) => this.limits[LIMIT_OF[a]] !== undefined);
    if (!set.length) return undefined;
    const used = this.used();
    const limits: Record<string, number> = {};
    const spent: Record<string, number> = {};
    const left: Record<string, number> = {};
    for (const a of set) {
      const limit = this.limits[LIMIT_OF[a]] as number;
      limits[a] = limit;
      spent[a] = used[a];
      left[a] = Math.max(0, limit - used[a]);
    }
    const onExhausted = this.answers ? 'answer' : 'stop';
    return { limits, used: spent, left, ...(this.answers ? { reserve: this.reserve() } : {}), onExhausted };
  }

  /**
   * With `onExhausted: 'answer'`: true once what is left of a limit is at or under its reserve, or
   * a call was refused for eating into it. No new step should start; the replanner answers.
   */
  underReserve(): boolean {
    if (!this.answers) return false;
    if (this.reserveReached) return true;
    const used = this.used();
    const reserve = this.reserve();
    return AMOUNTS.some((a) => {
      const limit = this.limits[LIMIT_OF[a]];
      return limit !== undefined && limit - used[a] <= (reserve[a] ?? 0);
    });
  }

  /**
   * The calls from here on are the answer (`onExhausted: 'answer'`): they may spend the reserve,
   * never past a limit. Called by the agent that answers (the plan–execute replanner).
   */
  beginAnswer(): void {
    this.answering = true;
  }

  /**
   * Tokens the answer call may write: what is left of `maxTokens` after its estimated input, and
   * what is left of `maxCost` after pricing that input, at `modelId`'s output price (at least 1);
   * undefined when neither limit is set.
   */
  answerOutputCap(request: ModelRequest, modelId?: string): number | undefined {
    const cap = outputCap(this.roomFor(request, modelId));
    return cap === undefined ? undefined : Math.max(1, cap);
  }

  /**
   * The room for `request`'s output under the limits less `keep`, the calls in flight (parallel
   * steps) counted as spending what they may.
   */
  private roomFor(request: ModelRequest, modelId: string | undefined, keep: BudgetAmounts = {}, inFlight = true): OutputRoom {
    const { maxTokens, maxCost } = this.limits;
    const limits = {
      maxTokens: maxTokens === undefined ? undefined : maxTokens - (keep.tokens ?? 0),
      maxCost: maxCost === undefined ? undefined : maxCost - (keep.cost ?? 0),
    };
    const price = modelId === undefined ? undefined : this.prices?.[modelId];
    const used = { tokens: this.used().tokens, cost: this.cost };
    return outputRoom(limits, inFlight ? this.inFlight.over(used) : used, price, request);
  }

  /**
   * Hard limits in every mode: the call is made only when its estimated input fits in what is left
   * of `maxTokens` and `maxCost` (else `BudgetExceededError` with `forecast`), and its output is
   * capped to the rest (`withOutputCap`). A work call in `'answer'` mode gets what is left above the
   * reserve (refused as eating into it, so the run answers).
   */
  private capOutput(modelId: string | undefined, request: ModelRequest): ModelRequest {
    const { maxTokens, maxCost } = this.limits;
    if (maxTokens === undefined && maxCost === undefined) return request;
    const keep = this.answers && !this.answering ? this.reserve() : {};
    const room = this.roomFor(request, modelId, keep);
    const fits = (r: OutputRoom) =>
      (r.tokens === undefined || r.tokens >= 1) && (r.moneyLeft === undefined || (r.moneyLeft >= 0 && (r.costTokens ?? 1) >= 1));
    // It would fit but for what calls in flight may still spend: `whenRoom` tells the caller to wait for them.
    if (!fits(room) && this.inFlight.size && fits(this.roomFor(request, modelId, keep, false))) {
      const tokens = room.tokens !== undefined && room.tokens < 1;
      const error = tokens
        ? new BudgetExceededError('maxTokens', maxTokens as number, this.used().tokens, undefined, room.input)
        : new BudgetExceededError('maxCost', maxCost as number, this.cost, undefined, room.inputCost);
      this.heldBack.add(error);
      throw error;
    }
    if (maxTokens !== undefined && (room.tokens as number) < 1)
      this.refuse('maxTokens', maxTokens, this.used().tokens, keep.tokens, room.input);
    if (maxCost !== undefined && ((room.moneyLeft as number) < 0 || (room.costTokens ?? 1) < 1))
      this.refuse('maxCost', maxCost, this.cost, keep.cost, room.inputCost);
    // A new object per call: it is this call's key in `inFlight` until `afterModelCall`.
    const sent = { ...withOutputCap(request, outputCap(room)) };
    // Held until the call ends: its input and its output cap (uncapped: the largest output so far).
    const output = sent.settings?.maxTokens ?? this.largestOutput;
    const price = modelId === undefined ? undefined : this.prices?.[modelId];
    this.inFlight.hold(sent, room.input + output, room.inputCost + costOf(price, { inputTokens: 0, outputTokens: output }));
    return sent;
  }

  /** Refuses a call whose input does not fit; with a reserve, as eating into it (sticky, see `checkReserve`). */
  private refuse(kind: BudgetKind, limit: number, used: number, keep: number | undefined, forecast: number): never {
    if (keep === undefined) throw new BudgetExceededError(kind, limit, used, undefined, forecast);
    this.reserveReached = { kind, limit, keep };
    throw new BudgetExceededError(kind, limit, used, keep);
  }

  /**
   * A work call (any but the answer) in `'answer'` mode: refused when it would leave less than the
   * reserve. Tokens are forecast: the request's estimated input plus its output cap
   * (`settings.maxTokens`, else the largest output of the run so far).
   */
  private checkReserve(modelId: string | undefined, request: ModelRequest | undefined): void {
    const used = this.used();
    // Once one call was refused, no work call goes on (a smaller one would fit, but the steps are stopping).
    const reached = this.reserveReached;
    if (reached) throw new BudgetExceededError(reached.kind, reached.limit, used[AMOUNT_OF[reached.kind]], reached.keep);
    const reserve = this.reserve();
    const forecast: Required<BudgetAmounts> = {
      tokens: request ? estimateTokens(requestChars(request)) + (request.settings?.maxTokens ?? this.largestOutput) : 0,
      cost: this.estimate(modelId, request, this.largestOutput),
      modelCalls: 1,
      timeMs: 0,
    };
    for (const a of AMOUNTS) {
      const limit = this.limits[LIMIT_OF[a]];
      if (limit === undefined) continue;
      const keep = reserve[a] ?? 0;
      // Model calls and time: the call starts only below limit − reserve; tokens and cost: it must end there.
      const over = a === 'modelCalls' || a === 'timeMs' ? used[a] >= limit - keep : used[a] + forecast[a] > limit - keep;
      if (over) {
        this.reserveReached = { kind: LIMIT_OF[a], limit, keep };
        throw new BudgetExceededError(LIMIT_OF[a], limit, used[a], keep);
      }
    }
  }

  /** The answer call must fit in what is left of `maxTokens`: its estimated input and output cap (the replanner sets it; `maxCost` is checked as for any call). */
  private checkAnswerFits(request: ModelRequest | undefined): void {
    const { maxTokens } = this.limits;
    if (maxTokens === undefined || !request) return;
    const tokens = this.used().tokens;
    const next = tokens + estimateTokens(requestChars(request)) + (request.settings?.maxTokens ?? 0);
    if (next > maxTokens) throw new BudgetExceededError('maxTokens', maxTokens, next);
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
      this.largestOutput = Math.max(this.largestOutput, usage.outputTokens);
      if (site?.plan) {
        const l = this.largestPlanCall;
        l.tokens = Math.max(l.tokens, usage.inputTokens + usage.outputTokens);
        l.cost = Math.max(l.cost, cost);
        l.latencyMs = Math.max(l.latencyMs, site.latencyMs);
      }
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

  /** A call's price forecast: its estimated input and its output cap (`settings.maxTokens`, else `output`). */
  private estimate(modelId: string | undefined, request: ModelRequest | undefined, output = 0): number {
    if (modelId === undefined || !request) return 0;
    const price = this.prices?.[modelId];
    if (!price) return 0;
    const input = estimateTokens(requestChars(request));
    return costOf(price, { inputTokens: input, outputTokens: request.settings?.maxTokens ?? output });
  }
}
