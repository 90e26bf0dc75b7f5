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
