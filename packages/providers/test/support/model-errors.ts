import { expect } from 'vitest';
import { ModelError, type ModelErrorKind } from '@replan/core';

/** The `ModelError` a call failed with (a test fails when the call succeeds). */
export async function failure(promise: Promise<unknown>): Promise<ModelError> {
  try {
    await promise;
  } catch (error) {
    return error as ModelError;
  }
  throw new Error('expected a failure');
}

/** The call failed with a `ModelError` of this kind. */
export function expectKind(error: unknown, kind: ModelErrorKind): void {
  expect(error).toBeInstanceOf(ModelError);
  expect((error as ModelError).kind).toBe(kind);
}
