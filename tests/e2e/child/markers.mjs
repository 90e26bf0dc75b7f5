// @ts-check
/**
 * Marker lines on stdout, one per phase and store write, numbered within the process:
 * `M <n> <label>`. When `n` is the armed kill point the process prints `FROZEN` and stops
 * dead (the event loop blocked) until the parent kills it with SIGKILL, so each kill lands
 * exactly at that marker.
 */
import { existsSync, writeSync } from 'node:fs';

let count = 0;
let killAt = 0;
/** @type {{ at: number, file: string } | undefined} */
let hold;

/** Arms the freeze at the `n`-th marker of this process (0: never). @param {number} n */
export function armKill(n) {
  killAt = n;
}

/**
 * Holds the process at the `at`-th marker until `file` exists: a barrier that lines up two
 * processes at the same point (e.g. both about to claim a session).
 * @param {number} at
 * @param {string} file
 */
export function armHold(at, file) {
  hold = { at, file };
}

const block = (/** @type {number} */ ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Writes a line to stdout synchronously (it is out before the process goes on). @param {string} line */
export function say(line) {
  writeSync(1, `${line}\n`);
}

/** @param {string} label */
export function mark(label) {
  count++;
  say(`M ${count} ${label}`);
  if (count === hold?.at) {
    const until = Date.now() + 60_000;
    while (!existsSync(hold.file)) {
      if (Date.now() > until) process.exit(4); // the parent never opened the barrier
      block(5);
    }
  }
  if (count !== killAt) return;
  say('FROZEN');
  block(60_000);
  process.exit(3); // the parent never killed us: fail loudly
}
