import { ReplanError } from '@replan/core';

/** Why a resume id was refused. */
export type ResumeIdProblem = 'malformed' | 'other-session' | 'past-end';

/**
 * What a UI message stream could not do:
 * - `resume_id`: a resume id (`after`, or a `Last-Event-ID` header) that does not point into this
 *   session's log (`problem`: not one of our chunk ids, an id from another session's stream, or past
 *   the end of the log). `resumeUIMessageStream` reports it as the stream's `error` part and ends it;
 * - `session_not_found`: the session to stream does not exist (yet) in the store: start it with
 *   `runner.run` first;
 * - `unknown_approval`: the client answered an approval this session is not waiting for (an unknown
 *   or already answered tool call). Nothing was resumed and nothing ran.
 */
export type UIStreamErrorKind = 'resume_id' | 'session_not_found' | 'unknown_approval';

/** A UI message stream request that cannot be served; `kind` says why. */
export class UIStreamError extends ReplanError {
  private constructor(
    readonly kind: UIStreamErrorKind,
    message: string,
    details: {
      readonly resumeId?: string;
      readonly problem?: ResumeIdProblem;
      readonly sessionId?: string;
      readonly approvalIds?: readonly string[];
      readonly openApprovalIds?: readonly string[];
    },
  ) {
    super(message);
    this.resumeId = details.resumeId;
    this.problem = details.problem;
    this.sessionId = details.sessionId;
    this.approvalIds = details.approvalIds ?? [];
    this.openApprovalIds = details.openApprovalIds ?? [];
  }

  /** The refused resume id (`resume_id`). */
  readonly resumeId: string | undefined;
  /** Why it was refused (`resume_id`). */
  readonly problem: ResumeIdProblem | undefined;
  /** The session that does not exist (`session_not_found`). */
  readonly sessionId: string | undefined;
  /** The approvals the client answered that are not open (`unknown_approval`). */
  readonly approvalIds: readonly string[];
  /** The approvals the session is waiting for (`unknown_approval`). */
  readonly openApprovalIds: readonly string[];

  static resumeId(resumeId: string, problem: ResumeIdProblem, detail: string): UIStreamError {
    return new UIStreamError(
      'resume_id',
      `Cannot resume the stream after "${resumeId}": ${detail}. Resume with an id this session's stream sent, or without one to replay the last run from its start.`,
      { resumeId, problem },
    );
  }

  static sessionNotFound(sessionId: string): UIStreamError {
    return new UIStreamError(
      'session_not_found',
      `No session "${sessionId}" in the store: nothing to stream. Start it with runner.run({ sessionId }) first.`,
      { sessionId },
    );
  }

  static unknownApproval(approvalIds: readonly string[], openApprovalIds: readonly string[]): UIStreamError {
    return new UIStreamError(
      'unknown_approval',
      `The client answered approval ${approvalIds.map((id) => `"${id}"`).join(', ')}, which this session is not waiting for. ` +
        `Open approvals: ${openApprovalIds.length ? openApprovalIds.join(', ') : 'none'}. Nothing was run; reload the chat to get its current state.`,
      { approvalIds, openApprovalIds },
    );
  }
}
