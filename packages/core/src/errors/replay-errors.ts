import { InvalidArgumentError, ReplanError } from './replan-error.js';

/**
 * Base class of the errors a replay raises (`ReplayModel` from `@replan/core/testing`). They stop
 * the whole run, never just one plan step: a replay that no longer matches its recording must be
 * loud, not turned into a step failure the replanner works around.
 */
export class ReplayError extends ReplanError {}

/**
 * Strict replay: an agent asked its model something else than in the recording. `differences`
 * says what changed (instruction, tool list, a tool's schema, settings, message count, the last
 * message or an earlier one), so a prompt or tool edit is easy to find.
 */
export class ReplayMismatchError extends ReplayError {
  constructor(
    /** The agent path whose request differs, e.g. `plan_execute/execute_replan/executor/B`. */
    readonly path: string,
    /** Which of that path's model calls (0-based) differs. */
    readonly callIndex: number,
    /** What differs, one plain sentence each. */
    readonly differences: readonly string[],
  ) {
    super(
      `Replay mismatch: agent "${path}" call #${callIndex + 1} asks something else than the recording: ${differences.join('; ')}. ` +
        'If the change is intended, record the session again, or replay with { fallback: liveModel } to continue live from here.',
    );
  }
}

/** An agent made more model calls than the recording holds for its path. */
export class ReplayExhaustedError extends ReplayError {
  constructor(
    /** The agent path that ran past its recording. */
    readonly path: string,
    /** The call (0-based) that has no recorded answer. */
    readonly callIndex: number,
    /** How many answers the recording holds for this path. */
    readonly recorded: number,
  ) {
    super(
      `Replay exhausted: agent "${path}" made model call #${callIndex + 1}, but the recording holds ${recorded} for this path` +
        `${recorded === 0 ? ' (no call at all: a renamed agent or a new plan step?)' : ''}. ` +
        'Record the session again, or replay with { fallback: liveModel } to continue live past the recording.',
    );
  }
}

/** A replayed model was called without `ModelCallOptions.agent`, so it cannot tell which recording to play. */
export class ReplayCallerUnknownError extends ReplayError {
  constructor(readonly modelId: string) {
    super(
      `Model "${modelId}" replays answers per agent path and was called without ModelCallOptions.agent. ` +
        "Call it through an agent (core's callModel / streamModelCall pass the caller), or pass { agent: { name, path } } yourself.",
    );
  }
}

/**
 * A recording given to a replay (`ReplayModel.fromSession`, `replayTools`, `checkRecording`) that
 * is not a valid session log: an event without its fields, a message whose content is not a list
 * of content blocks, a tool call without a name, a malformed `meta.request`. The message names the
 * event (its place in the recording and its id) and what is wrong. Nothing was replayed.
 */
export class ReplayRecordingError extends InvalidArgumentError {
  constructor(
    message: string,
    /** The event's 0-based place among the recording's events, when one event is at fault. */
    readonly eventIndex?: number,
    /** The event's id, when it has one. */
    readonly eventId?: string,
  ) {
    super(message);
  }
}
