import type { SessionKey } from '@replan/core';
import { assertSessionKey, assertUserKey } from '@replan/core/store-kit';
import { StudioError } from '../errors.js';

/** Runs a core identifier check, answering 400 with its message when it fails. */
function checked(check: () => void): void {
  try {
    check();
  } catch (error) {
    throw StudioError.request(400, (error as Error).message);
  }
}

export function requiredString(value: unknown, name: string): string {
  if (typeof value !== 'string' || value === '') throw StudioError.request(400, `"${name}" is required.`);
  return value;
}

/** An app and a user, checked as core checks identifiers. */
export function userKeyOf(appName: unknown, userId: unknown): { appName: string; userId: string } {
  const key = { appName: requiredString(appName, 'app'), userId: requiredString(userId, 'user') };
  checked(() => assertUserKey(key));
  return key;
}

/** A whole session key, checked as core checks identifiers. */
export function checkedSessionKey(appName: unknown, userId: unknown, id: unknown, idName = 'id'): SessionKey {
  const key = { ...userKeyOf(appName, userId), id: requiredString(id, idName) };
  checked(() => assertSessionKey(key));
  return key;
}

/** `app`, `user` and `id` of the query. */
export function sessionKeyOf(query: URLSearchParams): SessionKey {
  return checkedSessionKey(query.get('app'), query.get('user'), query.get('id'));
}

/** A whole number in [min, max], or `fallback` when absent. */
export function intOf(value: string | null | unknown, name: string, fallback: number, min: number, max: number): number {
  if (value === null || value === undefined || value === '') return fallback;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw StudioError.request(400, `"${name}" must be a whole number from ${min} to ${max}.`);
  return n;
}
