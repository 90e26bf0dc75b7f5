import type { Embedder, MemoryScope, MemoryStore } from '../../memory-store.js';
import type { MemoryErrorKind } from '../../memory-error.js';
import type { MemoryLimits } from '../../store/memory-rules.js';

/** The slice of a Jest-compatible test API the contract needs (Vitest's and Jest's both fit). */
export interface MemoryContractTestApi {
  describe(name: string, body: () => void): void;
  it(name: string, body: () => Promise<void> | void): void;
  // biome-ignore lint/suspicious/noExplicitAny: each framework's matcher object has its own type; the contract only calls common matchers.
  expect: (value: unknown) => any;
}

/** How the contract asks for a store: with its own embedder or limits for the cases that need them. */
export interface MemoryStoreSetup {
  readonly embed?: Embedder;
  readonly limits?: MemoryLimits;
}

/** What each group of cases gets. */
export interface MemoryCaseApi {
  readonly it: MemoryContractTestApi['it'];
  readonly expect: MemoryContractTestApi['expect'];
  /** Wraps a test body: a fresh, empty store built with `setup`, disposed after the body. */
  readonly withStore: (body: (store: MemoryStore) => Promise<void>, setup?: MemoryStoreSetup) => () => Promise<void>;
  /** Expects `promise` to reject with `MemoryError` of `kind`; returns the error. */
  readonly expectMemoryError: (promise: Promise<unknown>, kind: MemoryErrorKind) => Promise<Error>;
}

export const APP = 'contract-app';
export const appScope: MemoryScope = { appName: APP };
export const userScope = (userId: string): MemoryScope => ({ appName: APP, userId });

/**
 * A deterministic bag-of-words embedder (64 dimensions, one per hashed lower-case word): texts
 * sharing words get close vectors, so semantic ranking can be checked without a model.
 */
export const wordEmbedder: Embedder = async (texts) =>
  texts.map((text) => {
    const vector = new Array<number>(64).fill(0);
    for (const word of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
      let h = 2166136261;
      for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
      vector[(h >>> 0) % 64]! += 1;
    }
    return vector;
  });
