import type { SessionStore } from '../../sessions/session-store.js';

/** The slice of a Jest-compatible test API the contract needs (Vitest's and Jest's both fit). */
export interface ContractTestApi {
  describe(name: string, body: () => void): void;
  it(name: string, body: () => Promise<void> | void): void;
  // biome-ignore lint/suspicious/noExplicitAny: each framework's matcher object has its own type; the contract only calls common matchers.
  expect: (value: unknown) => any;
  beforeEach?(body: () => Promise<void> | void): void;
  afterEach?(body: () => Promise<void> | void): void;
}

/** What a group of contract cases gets from `runSessionStoreContract`. */
export interface ContractCaseApi {
  readonly it: ContractTestApi['it'];
  readonly expect: ContractTestApi['expect'];
  /** Wraps a test body: a fresh store, disposed after the body. */
  readonly withStore: (body: (store: SessionStore) => Promise<void>) => () => Promise<void>;
  /** The app name the cases use. */
  readonly app: string;
}

/** The error `promise` rejects with, or `undefined` when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return error as Error;
  }
}
