// Helpers of the tests that start child processes: is a pid alive, and wait (by polling, never by a
// fixed sleep) until a condition holds.
import { expect } from 'vitest';

/** Whether a process with this pid runs (signal 0 checks without sending anything). */
export const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Polls `check` every 10 ms, up to `tries` times, then asserts it holds. */
export const until = async (check: () => boolean, tries = 500): Promise<void> => {
  for (let i = 0; i < tries && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
};
