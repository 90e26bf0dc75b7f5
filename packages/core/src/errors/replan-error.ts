/** Base class of every error replan throws. `name` is stable and stored in error events. */
export class ReplanError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A wrong configuration found when an agent, tool or runner is built, or an API used the wrong way. */
export class ConfigurationError extends ReplanError {}

/** An argument a method cannot accept (a bad version, page size or cursor). Nothing was done. */
export class InvalidArgumentError extends ReplanError {}
