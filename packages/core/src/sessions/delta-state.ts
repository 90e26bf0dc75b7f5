import type { StateAccess } from '../tools/tool-context.js';
import { jsonStateValue } from './json-state.js';

/** State reads over a live base, with writes collected in `delta` (to be stored with an event). */
export class DeltaState implements StateAccess {
  readonly delta: Record<string, unknown> = {};

  constructor(private readonly base: Readonly<Record<string, unknown>>) {}

  get<T = unknown>(key: string): T | undefined {
    return (key in this.delta ? this.delta[key] : this.base[key]) as T | undefined;
  }
  has(key: string): boolean {
    return key in this.delta || key in this.base;
  }
  /**
   * Records a change. Throws `StateValueError` at once, recording nothing, when the value is
   * not JSON (see `jsonStateValue`); `-0` is recorded as `0`.
   */
  set(key: string, value: unknown): void {
    this.delta[key] = jsonStateValue(key, value);
  }
  toObject(): Readonly<Record<string, unknown>> {
    return { ...this.base, ...this.delta };
  }
  /** The collected writes, or `undefined` when there are none; clears them. */
  take(): Record<string, unknown> | undefined {
    // No array of keys when there are none: a run asks after every event, and most write nothing.
    let out: Record<string, unknown> | undefined;
    for (const k in this.delta) {
      out ??= {};
      out[k] = this.delta[k];
    }
    if (out) for (const k in out) delete this.delta[k];
    return out;
  }
  /** Marks the writes so far; calling the returned function drops every write made after it. */
  savepoint(): () => void {
    const saved = { ...this.delta };
    return () => {
      for (const k of Object.keys(this.delta)) delete this.delta[k];
      Object.assign(this.delta, saved);
    };
  }
}
