import { addUsage, emptyUsage, type Usage } from './usage.js';

/** Model calls of one part of a run (an agent path, a plan step), what they cost, and the tools it ran. */
export interface UsageBucket {
  readonly usage: Usage;
  readonly modelCalls: number;
  readonly cost: number;
  /** Sum of the calls' wall-clock latencies (concurrent calls overlap). */
  readonly latencyMs: number;
  /**
   * Tools run in this part of the run: every call a tool started, the inner calls of a code step
   * (`@replan/code`) included; not the calls a resume answered from the log.
   */
  readonly toolCalls: number;
}

/** A run's model calls (and tool calls) by agent path and by plan step. */
export interface UsageBreakdown {
  /** By the calling agent's path (e.g. `pe/executor/b`). */
  readonly byAgent: Readonly<Record<string, UsageBucket>>;
  /**
   * By work label (`ctx.withLabel`; plan–execute labels each plan step: graph mode's step id, linear
   * mode's step number). Calls made under no label are absent.
   */
  readonly byLabel: Readonly<Record<string, UsageBucket>>;
}

type MutableBucket = { -readonly [K in keyof UsageBucket]: UsageBucket[K] };

/** Accumulates `UsageBucket`s by key (buckets are updated in place: this runs once per model call). */
export class UsageTally {
  private readonly buckets = new Map<string, MutableBucket>();

  add(key: string, usage: Usage | undefined, cost: number, latencyMs: number): void {
    const b = this.bucket(key);
    if (usage) b.usage = addUsage(b.usage, usage);
    b.modelCalls++;
    b.cost += cost;
    b.latencyMs += latencyMs;
  }

  /** One tool started under `key`. */
  addToolCall(key: string): void {
    this.bucket(key).toolCalls++;
  }

  private bucket(key: string): MutableBucket {
    let b = this.buckets.get(key);
    if (!b) {
      b = { usage: emptyUsage(), modelCalls: 0, cost: 0, latencyMs: 0, toolCalls: 0 };
      this.buckets.set(key, b);
    }
    return b;
  }

  toRecord(): Record<string, UsageBucket> {
    const out: Record<string, UsageBucket> = {};
    for (const [key, b] of this.buckets) out[key] = { ...b };
    return out;
  }
}
