import type { StateAccess } from '../tools/tool-context.js';

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
  set(key: string, value: unknown): void {
    this.delta[key] = value;
  }
  toObject(): Readonly<Record<string, unknown>> {
    return { ...this.base, ...this.delta };
  }
  /** The collected writes, or `undefined` when there are none; clears them. */
  take(): Record<string, unknown> | undefined {
    const keys = Object.keys(this.delta);
    if (!keys.length) return undefined;
    const out = { ...this.delta };
    for (const k of keys) delete this.delta[k];
    return out;
  }
}
