import { randomBytes } from 'node:crypto';

/**
 * Memory ids: `m`, the creation time in milliseconds (12 hex digits), a counter (6 hex digits) and
 * 8 random hex digits. Ids one process makes sort in creation order, also within one millisecond and
 * when the clock steps back, so "by id" is "oldest first" in every store (list pages, ties in search).
 * The random part keeps ids of different processes apart.
 */
const ID = /^m[0-9a-f]{26}$/;

let lastTime = 0;
let counter = 0;

/** A new id, greater than every id this process made before. */
export function newMemoryId(now = Date.now()): string {
  if (now > lastTime) {
    lastTime = now;
    counter = 0;
  } else if (++counter > 0xffffff) {
    lastTime++;
    counter = 0;
  }
  return `m${lastTime.toString(16).padStart(12, '0')}${counter.toString(16).padStart(6, '0')}${randomBytes(4).toString('hex')}`;
}

/** Whether `value` has the form of an id a store made (a cheap check before any lookup). */
export function isMemoryId(value: string): boolean {
  return ID.test(value);
}

/** Compares ids in creation order (plain code-unit order: ids are ASCII). */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
