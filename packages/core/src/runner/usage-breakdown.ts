import { addUsage, emptyUsage, type Usage } from '../models/usage.js';

/** Model calls of one part of a run (an agent path, a plan step) and what they cost. */
export interface UsageBucket {
  readonly usage: Usage;
  readonly modelCalls: number;
  readonly cost: number;
  /** Sum of the calls' wall-clock latencies (concurrent calls overlap). */
  readonly latencyMs: number;
}

/** A run's model calls by agent path and by plan step. */
export interface UsageBreakdown {
  /** By the calling agent's path (e.g. `pe/executor/b`). */
  readonly byAgent: Readonly<Record<string, UsageBucket>>;
  /** By plan step: graph mode's step id, linear mode's step number. Calls outside a step are absent. */
  readonly byStep: Readonly<Record<string, UsageBucket>>;
}

/** Accumulates `UsageBucket`s by key. */
export class UsageTally {
  private readonly buckets = new Map<string, UsageBucket>();

  add(key: string, usage: Usage | undefined, cost: number, latencyMs: number): void {
    const b = this.buckets.get(key);
    this.buckets.set(key, {
      usage: addUsage(b?.usage ?? emptyUsage(), usage),
      modelCalls: (b?.modelCalls ?? 0) + 1,
      cost: (b?.cost ?? 0) + cost,
      latencyMs: (b?.latencyMs ?? 0) + latencyMs,
    });
  }

  toRecord(): Record<string, UsageBucket> {
    return Object.fromEntries(this.buckets);
  }
}
