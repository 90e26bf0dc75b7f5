import { ReplanError } from '@replan/core';

/** Why a resume id was refused. */
export type ResumeIdProblem = 'malformed' | 'other-session' | 'past-end';

/**
 * A resume id (`after`, or a `Last-Event-ID` header) that does not point into this session's log:
 * not one of our chunk ids, an id from another session's stream, or past the end of the log.
 * `resumeUIMessageStream` reports it as the stream's `error` part and ends the stream.
 */
export class ResumeIdError extends ReplanError {
  constructor(
    readonly resumeId: string,
    readonly problem: ResumeIdProblem,
    detail: string,
  ) {
    super(
      `Cannot resume the stream after "${resumeId}": ${detail}. Resume with an id this session's stream sent, or without one to replay the last run from its start.`,
    );
  }
}

/** The session to stream does not exist (yet) in the store: start it with `runner.run` first. */
export class StreamSessionNotFoundError extends ReplanError {
  constructor(readonly sessionId: string) {
    super(`No session "${sessionId}" in the store: nothing to stream. Start it with runner.run({ sessionId }) first.`);
  }
}

/**
 * The client answered an approval this session is not waiting for (an unknown or already answered
 * tool call). Nothing was resumed and nothing ran.
 */
export class UnknownApprovalError extends ReplanError {
  constructor(
    readonly approvalIds: readonly string[],
    readonly openApprovalIds: readonly string[],
  ) {
    super(
      `The client answered approval ${approvalIds.map((id) => `"${id}"`).join(', ')}, which this session is not waiting for. ` +
        `Open approvals: ${openApprovalIds.length ? openApprovalIds.join(', ') : 'none'}. Nothing was run; reload the chat to get its current state.`,
    );
  }
}
