import { ReplanError } from '@replan/core';

/** `waitFor` or `submitResume` named a session that never went through the run queue. */
export class RunNotQueuedError extends ReplanError {
  constructor(
    readonly appName: string,
    readonly userId: string,
    readonly sessionId: string,
  ) {
    super(
      `Session "${sessionId}" of user "${userId}" in app "${appName}" has no run in the queue. ` +
        'Start one with queue.submit(), or check the ids.',
    );
  }
}

/** A `waitFor` was pending when its session was deleted: there is no run left to wait for. */
export class RunSessionDeletedError extends ReplanError {
  constructor(
    readonly appName: string,
    readonly userId: string,
    readonly sessionId: string,
  ) {
    super(
      `Session "${sessionId}" of user "${userId}" in app "${appName}" was deleted while waiting for its run; ` +
        'its queued run went with it. Submit a new run with queue.submit() if it is still wanted.',
    );
  }
}

/** `submitResume` on a session whose run is still queued or running: nothing was changed. */
export class RunInProgressError extends ReplanError {
  constructor(
    readonly sessionId: string,
    readonly status: 'queued' | 'running',
  ) {
    super(
      `Session "${sessionId}" already has a ${status} run in the queue; nothing was changed. ` +
        'Wait for it with queue.waitFor(), then resume it if it stopped.',
    );
  }
}

/** A job was claimed more than `maxAttempts` times (each crash or lost lease counts): it is failed. */
export class RunAttemptsExhaustedError extends ReplanError {
  constructor(
    readonly sessionId: string,
    readonly attempts: number,
  ) {
    super(
      `Session "${sessionId}" was started ${attempts} times without finishing (its workers crashed or lost their leases), ` +
        'so the queue gave up. Look at the worker logs, then bring it back with queue.submitResume().',
    );
  }
}

/** `queue.close()` was called while a `waitFor` was pending: the run goes on; wait again on a new queue. */
export class RunQueueClosedError extends ReplanError {
  constructor(readonly sessionId: string) {
    super(
      `The run queue was closed while waiting for session "${sessionId}"; the run itself goes on. Wait for it again with a new PostgresRunQueue.`,
    );
  }
}
