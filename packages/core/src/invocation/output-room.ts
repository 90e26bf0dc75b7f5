import type { ModelRequest } from '../models/chat-model.js';
import { costOf, type ModelPrice } from '../models/model-prices.js';
import { estimateTokens, requestChars } from '../observe/request-size.js';

/**
 * The largest output cap sent on a request that sets no `settings.maxTokens` of its own: servers
 * refuse an output limit above what the model can write (OpenAI: "max_tokens is too large"), and
 * every chat model writes at least this much. Above it, such a request goes unchanged.
 */
export const SAFE_OUTPUT_CAP = 4096;

/** What the next model call may spend of a run's `maxTokens` and `maxCost`. */
export interface OutputRoom {
  /** The request's estimated input in tokens (about 4 characters a token) and its price. */
  readonly input: number;
  readonly inputCost: number;
  /** Money left after that input (`maxCost` set); under 0: the input alone does not fit. */
  readonly moneyLeft: number | undefined;
  /** Tokens left for the output under `maxTokens` (set); under 1: the input alone does not fit. */
  readonly tokens: number | undefined;
  /** Output tokens `moneyLeft` buys at the model's output price (`maxCost` set, priced above 0). */
  readonly costTokens: number | undefined;
}

/** The room for `request`'s output, given the limits and what the run used of them. */
export function outputRoom(
  limits: { readonly maxTokens?: number | undefined; readonly maxCost?: number | undefined },
  used: { readonly tokens: number; readonly cost: number },
  price: ModelPrice | undefined,
  request: ModelRequest,
): OutputRoom {
  const { maxTokens, maxCost } = limits;
  const input = estimateTokens(requestChars(request));
  const inputCost = costOf(price, { inputTokens: input, outputTokens: 0 });
  const moneyLeft = maxCost === undefined ? undefined : maxCost - used.cost - inputCost;
  return {
    input,
    inputCost,
    moneyLeft,
    tokens: maxTokens === undefined ? undefined : maxTokens - used.tokens - input,
    costTokens:
      moneyLeft !== undefined && price && price.outputPerMillion > 0 ? Math.floor((moneyLeft * 1e6) / price.outputPerMillion) : undefined,
  };
}

/** The smaller of the room's token caps; undefined when no limit caps the output. */
export function outputCap(room: OutputRoom): number | undefined {
  const caps = [room.tokens, room.costTokens].filter((c) => c !== undefined);
  return caps.length ? Math.min(...caps) : undefined;
}

/**
 * `request` with its output capped at `cap`: when the cap is below the request's own
 * `settings.maxTokens`, or the request has none and the cap is at most `SAFE_OUTPUT_CAP`.
 */
export function withOutputCap(request: ModelRequest, cap: number | undefined): ModelRequest {
  const own = request.settings?.maxTokens;
  if (cap === undefined || (own === undefined ? cap > SAFE_OUTPUT_CAP : cap >= own)) return request;
  return { ...request, settings: { ...request.settings, maxTokens: cap } };
}

/**
 * Model calls made and not yet ended (parallel steps), each with what it may still spend: its
 * estimated input and its output cap. Keyed by the request object sent (one per call).
 */
export class CallsInFlight {
  private readonly held = new Map<ModelRequest, { readonly tokens: number; readonly cost: number }>();
  private waiting: (() => void)[] = [];

  get size(): number {
    return this.held.size;
  }

  hold(sent: ModelRequest, tokens: number, cost: number): void {
    this.held.set(sent, { tokens, cost });
  }

  release(sent: ModelRequest): void {
    if (!this.held.delete(sent)) return;
    const waiting = this.waiting;
    this.waiting = [];
    for (const wake of waiting) wake();
  }

  /** Resolves when a call in flight ends (what it held is released). */
  released(): Promise<void> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** `used` plus what the calls in flight may spend. */
  over(used: { readonly tokens: number; readonly cost: number }): { tokens: number; cost: number } {
    let { tokens, cost } = used;
    for (const h of this.held.values()) {
      tokens += h.tokens;
      cost += h.cost;
    }
    return { tokens, cost };
  }
}
