import { assertIdentifier, assertSessionKey, type IdentifierField, type SessionKey } from '@replan/core';
import { StudioRequestError } from '../errors.js';

/** Runs a core identifier check, answering 400 with its message when it fails. */
function checked<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new StudioRequestError(400, (error as Error).message);
  }
}

export function requiredString(value: unknown, name: string): string {
  if (typeof value !== 'string' || value === '') throw new StudioRequestError(400, `"${name}" is required.`);
  return value;
}

/** `app`, `user` and `id` of the query, checked as core checks identifiers. */
export function sessionKeyOf(query: URLSearchParams): SessionKey {
  const key = {
    appName: requiredString(query.get('app'), 'app'),
    userId: requiredString(query.get('user'), 'user'),
    id: requiredString(query.get('id'), 'id'),
  };
  checked(() => assertSessionKey(key));
  return key;
}

export function identifier(value: unknown, field: IdentifierField): string {
  const text = requiredString(value, field);
  checked(() => assertIdentifier(field, text));
  return text;
}

/** A whole number in [min, max], or `fallback` when absent. */
export function intOf(value: string | null | unknown, name: string, fallback: number, min: number, max: number): number {
  if (value === null || value === undefined || value === '') return fallback;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new StudioRequestError(400, `"${name}" must be a whole number from ${min} to ${max}.`);
  return n;
}
