import { z } from 'zod';
import type { AgentEvent } from '../events/agent-event.js';
import { agentEventSchema, messageSchema } from '../events/event-schema.js';
import type { Message } from '../messages/message.js';
import type { FinishReason, ModelResponse } from '../models/chat-model.js';
import type { Session } from '../sessions/session.js';
import { replayRecordingInvalid } from '../errors/replay-errors.js';
import type { RequestRecord } from '../models/request-fingerprint.js';

/** A recording to replay: a stored session (e.g. `await store.get(key)`), an object with its events, or the events. */
export type RecordedSession = Session | { readonly events: readonly AgentEvent[] } | readonly AgentEvent[];

/** One recorded model answer of an agent path, as a replay serves it. */
export interface RecordedResponse {
  readonly request: RequestRecord;
  readonly response: ModelResponse;
  /** The id of the event that stored it (for error messages and tooling). */
  readonly eventId: string;
  /**
   * Its place among all recorded calls of the session, in the order they started: its run's place
   * in the log (a resume is a run of its own), then `meta.request.call` (log order for a recording
   * without it).
   */
  readonly order: number;
}

/** Room for the model calls of one run in `RecordedResponse.order` (far above any `maxModelCalls`). */
const CALLS_PER_RUN = 2 ** 32;

/** `meta.request` as stored by the model-call primitive (`StoredRequestRecord`), validated on read. */
const storedRequestSchema = z
  .object({
    fingerprint: z.string().min(1),
    parts: z.string(),
    call: z.number().int().positive().optional(),
    response: messageSchema.optional(),
    finishReason: z.enum(['stop', 'tool_calls', 'length', 'content_filter', 'refusal']).optional(),
  })
  .loose();

/** Events already found valid (objects; a recording is read by several replay helpers). */
const validEvents = new WeakSet<object>();

const idOf = (event: unknown): string | undefined => {
  const id = event && typeof event === 'object' ? (event as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : undefined;
};

/** `event 3 (id "e4")`: an event by its place in the recording (0-based) and its id. */
const eventName = (index: number, id: string | undefined) => `event ${index}${id === undefined ? '' : ` (id ${JSON.stringify(id)})`}`;

/**
 * The events of a recording, stored ones only (partial events are never stored), each checked
 * against the event schema stores read with: a recording edited by hand, cut short or written by
 * another program fails here with a `ReplayError` of kind `recording` naming the event and what is wrong,
 * instead of a `TypeError` deep inside a replayed run.
 */
export function recordedEvents(session: RecordedSession): readonly AgentEvent[] {
  const events = Array.isArray(session) ? session : session && (session as { readonly events?: unknown }).events;
  if (!Array.isArray(events))
    throw replayRecordingInvalid(
      'A recording must be a session, an object with `events`, or an array of events (e.g. `await store.get({ appName, userId, id })`).',
    );
  const stored: AgentEvent[] = [];
  (events as readonly unknown[]).forEach((event, index) => {
    if (event && typeof event === 'object') {
      if ((event as { partial?: unknown }).partial === true) return;
      if (validEvents.has(event)) {
        stored.push(event as AgentEvent);
        return;
      }
    }
    const parsed = agentEventSchema.safeParse(event);
    if (!parsed.success) {
      const id = idOf(event);
      const issues = parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.length ? i.path.join('.') : '(the event)'}: ${i.message}`)
        .join('; ');
      throw replayRecordingInvalid(
        `The recording's ${eventName(index, id)} is not a valid event: ${issues}. ` +
          'Was it edited, cut short or written by another program? Record the session again (or fix that event).',
        index,
        id,
      );
    }
    validEvents.add(event as object);
    stored.push(event as AgentEvent);
  });
  return stored;
}

/**
 * Every recorded model answer, by agent path, in log order: the events carrying `meta.request`.
 * The served response is the model's own message (`meta.request.response` when the event stored
 * a rewritten one) with its finish reason and the event's usage.
 */
export function recordedResponses(session: RecordedSession): Map<string, RecordedResponse[]> {
  const byPath = new Map<string, RecordedResponse[]>();
  // Invocation id → the place in the log of its latest run. A resume is a run of its own: its calls
  // are numbered from 1 again, after every call of the run it continues.
  const runs = new Map<string, number>();
  let started = 0;
  let logged = 0;
  for (const event of recordedEvents(session)) {
    if (event.actions?.resumeValues !== undefined || event.meta?.kind === 'resume') {
      runs.set(event.invocationId, started++);
      continue;
    }
    const stored = event.meta?.request;
    if (stored === undefined) continue;
    const parsed = storedRequestSchema.safeParse(stored);
    if (!parsed.success)
      throw replayRecordingInvalid(
        `Event ${event.id} (agent "${event.path}") has a malformed meta.request: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}. Was the session written by another program?`,
        undefined,
        event.id,
      );
    const message = (parsed.data.response as Message | undefined) ?? event.message;
    if (!message)
      throw replayRecordingInvalid(
        `Event ${event.id} (agent "${event.path}") records a model request but holds no response message.`,
        undefined,
        event.id,
      );
    const finishReason: FinishReason =
      parsed.data.finishReason ?? (message.content.some((b) => b.type === 'tool_call') ? 'tool_calls' : 'stop');
    const response: ModelResponse = event.usage ? { message, finishReason, usage: event.usage } : { message, finishReason };
    let run = runs.get(event.invocationId);
    if (run === undefined) {
      run = started++;
      runs.set(event.invocationId, run);
    }
    // Calls of one run by start order (a streamed plan is stored after the steps it started); runs in log order.
    const order = run * CALLS_PER_RUN + (parsed.data.call ?? ++logged);
    const list = byPath.get(event.path) ?? [];
    if (!list.length) byPath.set(event.path, list);
    list.push({ request: { fingerprint: parsed.data.fingerprint, parts: parsed.data.parts }, response, eventId: event.id, order });
  }
  return byPath;
}

/**
 * Checks a recording as `ReplayModel.fromSession` and `replayTools` read it: every stored event
 * against the event schema, and the recorded model requests. Returns its stored events (partial
 * ones left out); throws a `ReplayError` of kind `recording` naming the first event at fault and what is wrong.
 * For a recording read from a file before anything replays it (as `readRecordingFile` does).
 */
export function checkRecording(session: RecordedSession): readonly AgentEvent[] {
  recordedResponses(session);
  return recordedEvents(session);
}
