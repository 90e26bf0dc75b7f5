import type { AgentEvent } from '../events/agent-event.js';
import { agentEventSchema } from '../events/event-schema.js';
import { SessionCorruptError } from '../errors/session-errors.js';
import { InvalidArgumentError } from '../errors/replan-error.js';
import { isReadableSchemaVersion, OLDEST_SESSION_SCHEMA_VERSION, SESSION_SCHEMA_VERSION } from './session.js';
import { eventForStorage } from './apply-state.js';

/** One stored event as a durable store reads it back, before it is trusted. */
export interface StoredEventRecord {
  /** The `schemaVersion` saved with the event. */
  readonly schemaVersion: unknown;
  /** The event's 1-based position in the session (the session version once it was appended). */
  readonly seq: number;
  /** The event id saved beside the event, when the store keeps one. */
  readonly eventId?: string | undefined;
  /** The parsed JSON of the event. */
  readonly event: unknown;
}

/**
 * Fails with `SessionCorruptError` unless this replan reads `schemaVersion` (see `isReadableSchemaVersion`).
 * `what` names the record in the message (e.g. `the session header`, `event 3`).
 */
export function assertSchemaVersion(sessionId: string, what: string, schemaVersion: unknown, eventId?: string): void {
  if (isReadableSchemaVersion(schemaVersion)) return;
  throw new SessionCorruptError(
    sessionId,
    `${what} was written with schemaVersion ${JSON.stringify(schemaVersion)}, but this version of replan reads ` +
      `schemaVersion ${OLDEST_SESSION_SCHEMA_VERSION} to ${SESSION_SCHEMA_VERSION} (use the replan version that wrote it)`,
    eventId,
  );
}

/**
 * Validates a stored event (schema version, then shape with `agentEventSchema`) and returns it.
 * Anything wrong fails with `SessionCorruptError` naming the session and the event, so a bad
 * record stops a load up front instead of crashing deep inside a run.
 */
export function decodeStoredEvent(sessionId: string, record: StoredEventRecord): AgentEvent {
  const idOf = (value: unknown) => {
    const id = (value as { id?: unknown } | null)?.id;
    return typeof id === 'string' ? id : undefined;
  };
  const eventId = record.eventId ?? idOf(record.event);
  assertSchemaVersion(sessionId, `event ${record.seq}`, record.schemaVersion, eventId);
  const parsed = agentEventSchema.safeParse(record.event);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.length ? i.path.join('.') : '(event)'}: ${i.message}`)
      .join('; ');
    throw new SessionCorruptError(sessionId, `event ${record.seq} does not match the event schema (${issues})`, eventId);
  }
  if (record.eventId !== undefined && parsed.data.id !== record.eventId)
    throw new SessionCorruptError(
      sessionId,
      `event ${record.seq} holds event "${parsed.data.id}" but is filed as "${record.eventId}"`,
      record.eventId,
    );
  return parsed.data as unknown as AgentEvent;
}

/** Events as a durable store saves them: `temp:` keys removed from their state deltas. */
export function eventsForStorage(events: readonly AgentEvent[]): AgentEvent[] {
  return events.map(eventForStorage);
}

/** Fails with a `TypeError` unless `expectedVersion` can be a session version. */
export function assertExpectedVersion(expectedVersion: number): void {
  if (!Number.isInteger(expectedVersion) || expectedVersion < 0)
    throw new InvalidArgumentError(`expectedVersion must be a non-negative integer (the session's version), got ${expectedVersion}.`);
}

/** Fails with a `TypeError` unless `limit` is a usable page size. */
export function assertPageLimit(limit: number | undefined): void {
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1))
    throw new InvalidArgumentError(`list limit must be a positive integer, got ${limit}.`);
}
