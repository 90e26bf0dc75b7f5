/** Base class of every error replan throws. `name` is stable and stored in error events. */
export class ReplanError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A wrong configuration found when an agent, tool or runner is built. */
export class ConfigurationError extends ReplanError {}
