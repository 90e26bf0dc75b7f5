// @ts-check
/**
 * Side effects a tool makes, recorded in files under the work directory:
 * `attempts.log` gets a line for every model call and tool run (repeats included), and
 * `effects.log` a line per side effect, written once per idempotency key.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * @param {string} workDir
 * @param {string} processLabel which process (first run, resume 1, ...) made the entry
 */
export function effectLog(workDir, processLabel) {
  const attempts = join(workDir, 'attempts.log');
  const effects = join(workDir, 'effects.log');
  const line = (/** @type {object} */ entry) => `${JSON.stringify(entry)}\n`;
  return {
    /** @param {Record<string, unknown>} entry */
    attempt(entry) {
      appendFileSync(attempts, line({ process: processLabel, ...entry }));
    },
    /**
     * Performs the side effect once per key: a key already in the log is not written again.
     * @param {string} key the tool context's idempotencyKey
     * @param {unknown} value
     */
    applyOnce(key, value) {
      const done = existsSync(effects)
        ? readFileSync(effects, 'utf8')
            .split('\n')
            .some((l) => l && JSON.parse(l).key === key)
        : false;
      if (!done) appendFileSync(effects, line({ key, value }));
      return !done;
    },
  };
}
