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
 * The session id an `agentTool` call derives for its child session holds a session that this call
 * did not create (another parent, another tool call, or no link at all). Nothing was run.
 */
export class ChildSessionConflictError extends ReplanError {
  constructor(
    readonly childSessionId: string,
    readonly expected: { readonly parentSessionId: string; readonly toolCallId: string },
  ) {
    super(
      `Session "${childSessionId}" exists but is not the child session of tool call "${expected.toolCallId}" ` +
        `in session "${expected.parentSessionId}". Delete or rename that session; child session ids are reserved for agentTool.`,
    );
  }
}

/**
 * A resume answers questions of an `agentTool` call whose child session is gone (deleted after it
 * stopped). Running the agent again from scratch would ask again and leave the answers unused,
 * so the call fails instead: the calling model gets this as an error result.
 */
export class ChildSessionMissingError extends ReplanError {
  constructor(
    readonly childSessionId: string,
    readonly answered: readonly string[],
  ) {
    super(
      `Child session "${childSessionId}" no longer exists, but the resume answers its interrupts (${answered.join(', ')}). ` +
        'Its work cannot be continued; the calling agent is told the tool call failed.',
    );
  }
}

/**
 * `runner.run` or `runner.resume` was addressed to a child session of an `agentTool` call. A child
 * session is run only by its tool call, inside its parent's run (running the runner's agent in it
 * would run the wrong agent); its interrupts are answered in the root session under the ids that
 * carry the nesting (`<outer toolCallId>/<inner id>`). Refused before anything is stored or run.
 */
export class ChildSessionResumeError extends ReplanError {
  constructor(
    /** The session that was addressed: a child session. */
    readonly childSessionId: string,
    /** The session whose tool call runs the child. */
    readonly parentSessionId: string,
    /** The tool call (in the parent session) that runs the child. */
    readonly toolCallId: string,
    /** The session at the top of the chain of child sessions: the one to resume. */
    readonly rootSessionId: string,
    /** The root session's interrupt id for each of the child's interrupt ids named (or open). */
    readonly interruptIds: Readonly<Record<string, string>>,
    action: 'run' | 'resume' = 'resume',
  ) {
    const outer = Object.values(interruptIds);
    const via = rootSessionId === parentSessionId ? '' : ` (itself part of session "${rootSessionId}")`;
    const what =
      outer.length > 0
        ? `Answer in session "${rootSessionId}" instead, with the interrupt id${outer.length > 1 ? 's' : ''} ${outer.map((id) => `"${id}"`).join(', ')}: ` +
          `runner.resume({ sessionId: "${rootSessionId}", values: { "${outer[0]}": <answer> } }).`
        : `${action === 'run' ? 'Run or resume' : 'Resume'} session "${rootSessionId}" instead.`;
    super(
      `Session "${childSessionId}" is the child session of the agentTool call "${toolCallId}" in session "${parentSessionId}"${via}: ` +
        `only that call runs it, inside its parent's run, so it cannot be ${action === 'run' ? 'run' : 'resumed'} on its own. ${what} Nothing was stored.`,
    );
  }
}
