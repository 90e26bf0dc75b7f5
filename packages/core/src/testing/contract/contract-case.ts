import type { SessionStore } from '../../sessions/session-store.js';
import type { ContractTestApi } from '../session-store-contract.js';

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
