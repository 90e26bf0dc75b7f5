import { ReplanError } from './replan-error.js';

/**
 * What a replay (`ReplayModel` from `@replan/core/testing`, `replayTools`, `checkRecording`) found wrong:
 * - `mismatch`: strict replay, an agent asked its model something else than in the recording;
 *   `differences` says what changed (instruction, tool list, a tool's schema, settings, message
 *   count, the last message or an earlier one), so a prompt or tool edit is easy to find;
 * - `exhausted`: an agent made more model calls than the recording holds for its path (`recorded`);
 * - `caller_unknown`: a replayed model was called without `ModelCallOptions.agent`, so it cannot
 *   tell which recording to play (`modelId`);
 * - `recording`: the recording given is not a valid session log (an event without its fields, a
 *   message whose content is not a list of blocks, a malformed `meta.request`); `eventIndex` and
 *   `eventId` name the event at fault. Nothing was replayed.
 */
export type ReplayErrorKind = 'mismatch' | 'exhausted' | 'caller_unknown' | 'recording';

/** What a `ReplayError` knows besides its kind; each field belongs to the kinds its comment names. */
export interface ReplayErrorDetails {
  /** The agent path whose request differs or that ran past its recording (`mismatch`, `exhausted`). */
  readonly path?: string;
  /** Which of that path's model calls (0-based) differs or has no answer (`mismatch`, `exhausted`). */
  readonly callIndex?: number;
  /** What differs, one plain sentence each (`mismatch`). */
  readonly differences?: readonly string[];
  /** How many answers the recording holds for this path (`exhausted`). */
  readonly recorded?: number;
  /** The replayed model's id (`caller_unknown`). */
  readonly modelId?: string;
  /** The event's 0-based place among the recording's events, when one event is at fault (`recording`). */
  readonly eventIndex?: number;
  /** The event's id, when it has one (`recording`). */
  readonly eventId?: string;
}

/**
 * A replay does not match its recording, ran past it, or was given a recording that is no session
 * log; `kind` says which. It stops the whole run, never just one plan step: a replay that no longer
 * matches its recording must be loud, not turned into a step failure the replanner works around.
 * The one replay error class.
 */
export class ReplayError extends ReplanError {
  readonly path: string | undefined;
  readonly callIndex: number | undefined;
  readonly differences: readonly string[];
  readonly recorded: number | undefined;
  readonly modelId: string | undefined;
  readonly eventIndex: number | undefined;
  readonly eventId: string | undefined;

  constructor(
    readonly kind: ReplayErrorKind,
    message: string,
    details: ReplayErrorDetails = {},
  ) {
    super(message);
    this.path = details.path;
    this.callIndex = details.callIndex;
    this.differences = details.differences ?? [];
    this.recorded = details.recorded;
    this.modelId = details.modelId;
    this.eventIndex = details.eventIndex;
    this.eventId = details.eventId;
  }
}

/** Strict replay: agent `path`'s call `callIndex` asks something else than the recording. */
export const replayMismatch = (path: string, callIndex: number, differences: readonly string[]): ReplayError =>
  new ReplayError(
    'mismatch',
    `Replay mismatch: agent "${path}" call #${callIndex + 1} asks something else than the recording: ${differences.join('; ')}. ` +
      'If the change is intended, record the session again, or replay with { fallback: liveModel } to continue live from here.',
    { path, callIndex, differences },
  );

/** Agent `path` made call `callIndex`, past the `recorded` answers of its recording. */
export const replayExhausted = (path: string, callIndex: number, recorded: number): ReplayError =>
  new ReplayError(
    'exhausted',
    `Replay exhausted: agent "${path}" made model call #${callIndex + 1}, but the recording holds ${recorded} for this path` +
      `${recorded === 0 ? ' (no call at all: a renamed agent or a new plan step?)' : ''}. ` +
      'Record the session again, or replay with { fallback: liveModel } to continue live past the recording.',
    { path, callIndex, recorded },
  );

/** A replayed model was called without `ModelCallOptions.agent`. */
export const replayCallerUnknown = (modelId: string): ReplayError =>
  new ReplayError(
    'caller_unknown',
    `Model "${modelId}" replays answers per agent path and was called without ModelCallOptions.agent. ` +
      "Call it through an agent (core's callModel / streamModelCall pass the caller), or pass { agent: { name, path } } yourself.",
    { modelId },
  );

/** The recording is not a valid session log; `message` names the event and what is wrong. */
export const replayRecordingInvalid = (message: string, eventIndex?: number, eventId?: string): ReplayError =>
  new ReplayError('recording', message, {
    ...(eventIndex !== undefined ? { eventIndex } : {}),
    ...(eventId !== undefined ? { eventId } : {}),
  });
