import { ConfigurationError, ReplanError } from '@replan/core';

/** `@a2a-js/sdk` is not installed (it is a peer dependency of `@replan/a2a`). */
export function missingSdkError(caller: string, cause: unknown): ConfigurationError {
  return new ConfigurationError(`${caller} needs the A2A SDK: install it with \`npm install @a2a-js/sdk\` (version 1.x).`, {
    cause,
  });
}

/**
 * What went wrong with a remote A2A agent: `connection` — it could not be reached, or answered with a
 * protocol error; `task_failed` — its task ended without an answer (`state`: failed, rejected or canceled).
 */
export type A2aErrorKind = 'connection' | 'task_failed';

/** A remote A2A agent failed; `kind` says how. The one error class of `@replan/a2a`. */
export class A2aError extends ReplanError {
  private constructor(
    readonly kind: A2aErrorKind,
    /** The remote agent's URL. */
    readonly url: string,
    message: string,
    /** The remote task (`task_failed`). */
    readonly taskId: string | undefined,
    /** The task's final state, e.g. `failed`, `canceled`, `rejected` (`task_failed`). */
    readonly state: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** The agent at `url` could not be reached, or answered with a protocol error. */
  static connection(url: string, message: string, options?: { cause?: unknown }): A2aError {
    return new A2aError('connection', url, `A2A agent at ${url}: ${message}`, undefined, undefined, options);
  }

  /** Task `taskId` of the agent at `url` ended `state` without an answer. */
  static taskFailed(url: string, taskId: string, state: string, detail: string): A2aError {
    return new A2aError(
      'task_failed',
      url,
      `A2A agent at ${url}: task ${taskId} ended ${state}${detail ? `: ${detail}` : ''}. Check the remote agent's logs, or retry the call.`,
      taskId,
      state,
    );
  }
}
