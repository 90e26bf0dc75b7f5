import { ConfigurationError, ReplanError } from '@replan/core';

/** `@a2a-js/sdk` is not installed (it is a peer dependency of `@replan/a2a`). */
export function missingSdkError(caller: string, cause: unknown): ConfigurationError {
  return new ConfigurationError(`${caller} needs the A2A SDK: install it with \`npm install @a2a-js/sdk\` (version 1.x).`, {
    cause,
  });
}

/** The remote A2A agent could not be reached, or answered with a protocol error. */
export class A2aConnectionError extends ReplanError {
  constructor(
    readonly url: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`A2A agent at ${url}: ${message}`, options);
  }
}

/** The remote A2A task ended without an answer (failed, rejected or canceled). */
export class A2aTaskFailedError extends ReplanError {
  constructor(
    readonly url: string,
    readonly taskId: string,
    /** The task's final state, e.g. `failed`, `canceled`, `rejected`. */
    readonly state: string,
    detail: string,
  ) {
    super(
      `A2A agent at ${url}: task ${taskId} ended ${state}${detail ? `: ${detail}` : ''}. Check the remote agent's logs, or retry the call.`,
    );
  }
}
