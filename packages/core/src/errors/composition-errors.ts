import type { RunStatus } from '../events/agent-event.js';
import { ReplanError } from './replan-error.js';

/**
 * An agent run as a tool (`agentTool`) ended without an answer (`failed`, `max_iterations`). The
 * calling model receives this message as an error tool result and decides what to do next.
 */
export class AgentToolError extends ReplanError {
  constructor(
    readonly toolName: string,
    readonly agentName: string,
    readonly status: RunStatus,
    readonly childSessionId: string,
    reason: string | undefined,
  ) {
    super(
      `Agent "${agentName}" (tool "${toolName}") ended ${status} without an answer${reason ? `: ${reason}` : ''}. ` +
        `Its events are in child session "${childSessionId}".`,
    );
  }
}

/**
 * What is wrong with an `agentTool` call's child session:
 * - `conflict`: the session id the call derives for its child holds a session this call did not
 *   create (another parent, another tool call, or no link at all). Nothing was run;
 * - `missing`: a resume answers questions (`answered`) of a call whose child session is gone (deleted
 *   after it stopped). Running the agent again would ask again and leave the answers unused, so the
 *   call fails instead: the calling model gets this as an error result;
 * - `resume`: `runner.run` or `runner.resume` was addressed to a child session. A child session is run
 *   only by its tool call, inside its parent's run; its interrupts are answered in the root session
 *   (`rootSessionId`) under the ids that carry the nesting (`interruptIds`). Refused before anything
 *   is stored or run.
 */
export type ChildSessionErrorKind = 'conflict' | 'missing' | 'resume';

/** An `agentTool` call's child session cannot be used as asked; `kind` says why, the message what to do. */
export class ChildSessionError extends ReplanError {
  /** The session whose tool call runs the child (`conflict`: the expected one; `resume`). */
  readonly parentSessionId: string | undefined;
  /** The tool call (in the parent session) that runs the child (`conflict`: the expected one; `resume`). */
  readonly toolCallId: string | undefined;
  /** The session at the top of the chain of child sessions: the one to resume (`resume`). */
  readonly rootSessionId: string | undefined;
  /** The root session's interrupt id for each of the child's interrupt ids named or open (`resume`). */
  readonly interruptIds: Readonly<Record<string, string>>;
  /** The interrupts the resume answered (`missing`). */
  readonly answered: readonly string[];

  private constructor(
    readonly kind: ChildSessionErrorKind,
    /** The child session addressed, or derived by the call. */
    readonly childSessionId: string,
    message: string,
    details: {
      readonly parentSessionId?: string;
      readonly toolCallId?: string;
      readonly rootSessionId?: string;
      readonly interruptIds?: Readonly<Record<string, string>>;
      readonly answered?: readonly string[];
    },
  ) {
    super(message);
    this.parentSessionId = details.parentSessionId;
    this.toolCallId = details.toolCallId;
    this.rootSessionId = details.rootSessionId;
    this.interruptIds = details.interruptIds ?? {};
    this.answered = details.answered ?? [];
  }

  /** The child id holds a session that is not this call's child. */
  static conflict(childSessionId: string, expected: { readonly parentSessionId: string; readonly toolCallId: string }): ChildSessionError {
    return new ChildSessionError(
      'conflict',
      childSessionId,
      `Session "${childSessionId}" exists but is not the child session of tool call "${expected.toolCallId}" ` +
        `in session "${expected.parentSessionId}". Delete or rename that session; child session ids are reserved for agentTool.`,
      expected,
    );
  }

  /** A resume answers interrupts of a child session that no longer exists. */
  static missing(childSessionId: string, answered: readonly string[]): ChildSessionError {
    return new ChildSessionError(
      'missing',
      childSessionId,
      `Child session "${childSessionId}" no longer exists, but the resume answers its interrupts (${answered.join(', ')}). ` +
        'Its work cannot be continued; the calling agent is told the tool call failed.',
      { answered },
    );
  }

  /** `runner.run` / `runner.resume` addressed a child session; the message names the root session and ids to use. */
  static resume(
    childSessionId: string,
    parentSessionId: string,
    toolCallId: string,
    rootSessionId: string,
    interruptIds: Readonly<Record<string, string>>,
    action: 'run' | 'resume' = 'resume',
  ): ChildSessionError {
    const outer = Object.values(interruptIds);
    const via = rootSessionId === parentSessionId ? '' : ` (itself part of session "${rootSessionId}")`;
    const what =
      outer.length > 0
        ? `Answer in session "${rootSessionId}" instead, with the interrupt id${outer.length > 1 ? 's' : ''} ${outer.map((id) => `"${id}"`).join(', ')}: ` +
          `runner.resume({ sessionId: "${rootSessionId}", values: { "${outer[0]}": <answer> } }).`
        : `${action === 'run' ? 'Run or resume' : 'Resume'} session "${rootSessionId}" instead.`;
    return new ChildSessionError(
      'resume',
      childSessionId,
      `Session "${childSessionId}" is the child session of the agentTool call "${toolCallId}" in session "${parentSessionId}"${via}: ` +
        `only that call runs it, inside its parent's run, so it cannot be ${action === 'run' ? 'run' : 'resumed'} on its own. ${what} Nothing was stored.`,
      { parentSessionId, toolCallId, rootSessionId, interruptIds },
    );
  }
}
