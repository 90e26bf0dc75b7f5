import { ReplanError } from './replan-error.js';

/**
 * A state value that is not JSON, refused when it was set (`ctx.state.set`, a hook's state write,
 * an event's `stateDelta`/`stateAppend`, `outputKey`, a run's or a session's initial `state`).
 * Nothing of it was stored. `path` locates the bad part inside the value, e.g. `user:prefs.items[2]`.
 */
export class StateValueError extends ReplanError {
  constructor(
    /** The state key being set. */
    readonly key: string,
    /** Where inside the value the problem is: the key, then `.prop` / `[index]` steps. */
    readonly path: string,
    /** What was found there, e.g. `a Date`, `a BigInt`, `NaN`, `a circular reference`. */
    readonly found: string,
    /** What to store instead. */
    hint: string,
  ) {
    super(
      `State key ${JSON.stringify(key.length > 60 ? `${key.slice(0, 60)}…` : key)} cannot be set: ${path} is ${found}. ` +
        `State values must be JSON (strings, finite numbers, booleans, null, arrays and plain objects of these), ` +
        `the same on every store; ${hint}`,
    );
  }
}
