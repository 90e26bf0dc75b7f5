import { MemoryError, type MemoryErrorKind } from '../memory-error.js';
import type { MemoryStore } from '../memory-store.js';
import { basicCases } from './contract/basic-cases.js';
import type { MemoryCaseApi, MemoryContractTestApi, MemoryStoreSetup } from './contract/contract-api.js';
import { inputCases } from './contract/input-cases.js';
import { isolationCases } from './contract/isolation-cases.js';

/** What `runMemoryStoreContract` takes. */
interface MemoryStoreContractOptions {
  /** Shown in the test names. */
  readonly name: string;
  /**
   * A fresh, empty store for each test, built with `setup.embed` and `setup.limits` when given (the
   * semantic, embedder-failure and limit cases pass their own).
   */
  readonly createStore: (setup: MemoryStoreSetup) => MemoryStore | Promise<MemoryStore>;
  /** Called after each test with the store it used (close pools, remove directories). */
  readonly disposeStore?: (store: MemoryStore) => void | Promise<void>;
  /** The test API: `{ describe, it, expect }` from vitest (or Jest). */
  readonly test: MemoryContractTestApi;
}

/**
 * The behaviour every `MemoryStore` must have: put/get/list (paged, oldest first)/
 * delete; search ranks the relevant item first, honours `k` and `kinds`, orders equal scores oldest
 * first and gives the same answer twice; lexical by default, by meaning with an embedder; scopes
 * exact under hostile ids (a user's items never reach another user's or the app's search, list, get
 * or delete); `forgetUser` removes that user's items only and counts them; metadata JSON only, a
 * 1 MB text `too_large`, and other bad input `MemoryError('invalid')` with nothing stored; an
 * embedder that throws or returns wrong counts or lengths `MemoryError('embedder')`.
 *
 * Run it from a test file of your store:
 * `runMemoryStoreContract({ name: 'mine', createStore: (setup) => new MyStore(setup), test: { describe, it, expect } })`.
 */
export function runMemoryStoreContract(options: MemoryStoreContractOptions): void {
  const { describe, it, expect } = options.test;
  const withStore: MemoryCaseApi['withStore'] =
    (body, setup = {}) =>
    async () => {
      const store = await options.createStore(setup);
      try {
        await body(store);
      } finally {
        await options.disposeStore?.(store);
      }
    };
  const expectMemoryError = async (promise: Promise<unknown>, kind: MemoryErrorKind): Promise<Error> => {
    let error: unknown;
    try {
      await promise;
    } catch (e) {
      error = e;
    }
    expect({ name: (error as Error | undefined)?.name, kind: (error as MemoryError | undefined)?.kind }).toEqual({
      name: 'MemoryError',
      kind,
    });
    expect(error).toBeInstanceOf(MemoryError);
    return error as Error;
  };
  const api: MemoryCaseApi = { it, expect, withStore, expectMemoryError };
  describe(`MemoryStore contract: ${options.name}`, () => {
    basicCases(api);
    isolationCases(api);
    inputCases(api);
  });
}
