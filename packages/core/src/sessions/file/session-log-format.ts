import type { FileHandle } from 'node:fs/promises';
import type { AgentEvent } from '../../events/agent-event.js';
import { SessionCorruptError } from '../../errors/session-errors.js';
import { isReadableSchemaVersion, SESSION_SCHEMA_VERSION, type SessionKey } from '../session.js';
import { assertSchemaVersion, decodeStoredEvent } from '../stored-event.js';

/**
 * The first line of a session file: who the session is, and its initial session-scoped state.
 * `app:`/`user:` state lives in its own files.
 */
export interface SessionHeader extends SessionKey {
  readonly schemaVersion: number;
  readonly kind: typeof HEADER_KIND;
  readonly createdAt: number;
  readonly state: Record<string, unknown>;
  /** Names this creation: the provenance of the initial `app:`/`user:` state (see scope-state-file.ts). */
  readonly createId?: string;
}

/**
 * Every later line: one event. `end` marks the last line of one `appendEvents` call; lines after
 * the last `end` are a batch torn by a crash and are ignored. `after` (on a batch's first line
 * only) is the byte offset where the committed log ended when the batch was written, present
 * when uncommitted bytes (a torn batch, a losing racer's batch) lay between: it is what lets a
 * reader skip those bytes instead of calling them corrupt. Nothing is ever cut off or rewritten.
 */
interface EventLine {
  readonly schemaVersion: number;
  readonly seq: number;
  readonly eventId: string;
  readonly after?: number;
  readonly end?: true;
  readonly event: unknown;
}

const HEADER_KIND = 'replan.session';
const NEWLINE = 0x0a;

export function encodeHeader(key: SessionKey, createdAt: number, state: Record<string, unknown>, createId?: string): string {
  const header: SessionHeader = {
    schemaVersion: SESSION_SCHEMA_VERSION,
    kind: HEADER_KIND,
    appName: key.appName,
    userId: key.userId,
    id: key.id,
    createdAt,
    state,
    ...(createId ? { createId } : {}),
  };
  return `${JSON.stringify(header)}\n`;
}

/** The lines of one append: event `fromVersion + 1` onwards, the last one marked `end`. */
export function encodeEventLines(events: readonly AgentEvent[], fromVersion: number, after?: number): string {
  let out = '';
  events.forEach((event, i) => {
    // Field order is fixed so the event id can be recovered from a line whose tail is damaged.
    const line: EventLine = {
      schemaVersion: SESSION_SCHEMA_VERSION,
      seq: fromVersion + i + 1,
      eventId: event.id,
      ...(i === 0 && after !== undefined ? { after } : {}),
      ...(i === events.length - 1 ? { end: true as const } : {}),
      event,
    };
    out += `${JSON.stringify(line)}\n`;
  });
  return out;
}

function tryJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The event id at the start of a line, even when the rest of the line is damaged. */
function eventIdOfRaw(text: string): string | undefined {
  const m = /^\{"schemaVersion":-?\d+,"seq":-?\d+,"eventId":("(?:[^"\\]|\\.)*")/.exec(text);
  const parsed = m?.[1] !== undefined ? tryJson(m[1]) : undefined;
  return parsed?.ok && typeof parsed.value === 'string' ? parsed.value : undefined;
}

/** Whether a parsed line closes a committed batch (an event line of this schema marked `end`). */
function isBatchEnd(value: unknown): value is EventLine {
  return isObject(value) && isReadableSchemaVersion(value.schemaVersion) && value.end === true && Number.isInteger(value.seq);
}

/** An event line's fields as parsed, before the event itself is trusted. */
function asEventLine(value: unknown): EventLine | undefined {
  return isObject(value) && Number.isInteger(value.seq) && isReadableSchemaVersion(value.schemaVersion)
    ? (value as unknown as EventLine)
    : undefined;
}

/** Checks a header line and that it is the session asked for (key equality, not just the file name). */
export function decodeHeader(text: string | undefined, key: SessionKey, file: string): SessionHeader {
  const parsed = text === undefined ? { ok: false as const } : tryJson(text);
  if (!parsed.ok || !isObject(parsed.value)) throw new SessionCorruptError(key.id, `its header (line 1 of ${file}) is not valid JSON`);
  const h = parsed.value;
  assertSchemaVersion(key.id, `the session header (line 1 of ${file})`, h.schemaVersion);
  if (h.kind !== HEADER_KIND || typeof h.createdAt !== 'number' || !isObject(h.state))
    throw new SessionCorruptError(key.id, `its header (line 1 of ${file}) is not a replan session header`);
  if (h.appName !== key.appName || h.userId !== key.userId || h.id !== key.id)
    throw new SessionCorruptError(
      key.id,
      `its file ${file} holds session "${String(h.id)}" of user "${String(h.userId)}" in app "${String(h.appName)}"`,
    );
  return h as unknown as SessionHeader;
}

export interface LoadedLog {
  readonly header: SessionHeader;
  readonly events: AgentEvent[];
  /** The committed version (events in committed batches). */
  readonly version: number;
  /** Byte offset where the committed part ends (what a writer's `after` refers to). */
  readonly end: number;
  /** Bytes decoded (the file size read). */
  readonly size: number;
  /** Whether those bytes end with a newline (else the next batch starts with one). */
  readonly endsWithNewline: boolean;
}

interface RawLine {
  readonly text: string;
  readonly start: number;
  /** Offset just past the newline. */
  readonly next: number;
  readonly value: unknown;
  readonly ok: boolean;
}

/**
 * Reads a whole session file. The committed log is the chain of batches each of which starts
 * right where the previous one ended, or declares (`after`) where that was; bytes in between are
 * uncommitted (a batch torn by a crash, a racer's losing batch) and are skipped. Bytes after the
 * last committed batch are a torn tail, ignored. Anything else — a damaged or misnumbered line
 * followed by later events, an event that does not match the schema, another schema version —
 * is `SessionCorruptError` naming the file and line.
 */
export function decodeSessionLog(data: Buffer, key: SessionKey, file: string): LoadedLog {
  const lines: RawLine[] = [];
  for (let start = 0; ; ) {
    const nl = data.indexOf(NEWLINE, start);
    if (nl < 0) break; // the rest (if any) is a torn line
    const text = data.toString('utf8', start, nl);
    const json = tryJson(text);
    lines.push({ text, start, next: nl + 1, value: json.ok ? json.value : undefined, ok: json.ok });
    start = nl + 1;
  }
  const header = decodeHeader(lines[0]?.text, key, file);
  const at = (i: number) => `line ${i + 1} of ${file}`;
  let end = lines[0]!.next;
  let version = 0;
  const events: AgentEvent[] = [];
  let broken: SessionCorruptError | undefined; // the first line after `end` nothing explains yet
  const breakAt = (i: number, expectedSeq: number) => {
    const line = lines[i]!;
    if (!line.ok || !isObject(line.value))
      return new SessionCorruptError(key.id, `${at(i)} (event ${expectedSeq}) is not valid JSON`, eventIdOfRaw(line.text));
    const eventId = typeof line.value.eventId === 'string' ? line.value.eventId : undefined;
    return new SessionCorruptError(
      key.id,
      `${at(i)} is numbered ${JSON.stringify(line.value.seq)} where event ${expectedSeq} belongs (lines lost, repeated or reordered)`,
      eventId,
    );
  };
  for (let i = 1; i < lines.length; ) {
    const raw = lines[i]!;
    if (raw.ok && isObject(raw.value) && !isReadableSchemaVersion(raw.value.schemaVersion))
      // A complete line from another schema is never "torn": refuse it rather than skip it.
      assertSchemaVersion(key.id, at(i), raw.value.schemaVersion, eventIdOfRaw(raw.text));
    const line = asEventLine(raw.value);
    if (line && line.seq === version + 1 && (raw.start === end || line.after === end)) {
      let k = i;
      let complete = false;
      for (let seq = version + 1; k < lines.length; k++, seq++) {
        const next = asEventLine(lines[k]!.value);
        if (!next || next.seq !== seq || (k > i && next.after !== undefined)) break;
        if (next.end === true) {
          complete = true;
          break;
        }
      }
      if (complete) {
        for (let b = i; b <= k; b++) {
          const l = lines[b]!.value as EventLine;
          const eventId = typeof l.eventId === 'string' ? l.eventId : undefined;
          events.push(decodeStoredEvent(key.id, { schemaVersion: l.schemaVersion, seq: l.seq, eventId, event: l.event }));
        }
        version = (lines[k]!.value as EventLine).seq;
        end = lines[k]!.next;
        broken = undefined;
        i = k + 1;
        continue;
      }
      // A batch cut short: torn by a crash if nothing later depends on it, else damage.
      if (k < lines.length) broken ??= breakAt(k, version + 1 + (k - i));
      i = k;
      continue;
    }
    if (line && line.seq <= version && (line.after === undefined || line.after < end)) {
      // A losing racer's batch (written for a version already taken): skip it whole.
      let k = i;
      for (let seq = line.seq; k < lines.length; k++, seq++) {
        const next = asEventLine(lines[k]!.value);
        if (!next || next.seq !== seq || next.end === true) break;
      }
      const last = asEventLine(lines[k]?.value);
      if (last?.end === true && last.seq === line.seq + (k - i)) {
        i = k + 1;
        continue;
      }
    }
    broken ??= breakAt(i, version + 1);
    // A complete batch end beyond the committed version that the chain cannot reach: damage.
    if (line?.end === true && line.seq > version) throw broken;
    i++;
  }
  const size = data.length;
  return { header, events, version, end, size, endsWithNewline: size === 0 || data[size - 1] === NEWLINE };
}

/**
 * The version of a session file as `list` shows it, read backwards from the end so it costs the
 * size of the last batch: the number of the last complete batch end (the header alone: 0).
 */
export async function findLastVersion(fh: FileHandle, size: number, key: SessionKey, file: string): Promise<number> {
  let pos = size;
  let pending: Buffer = Buffer.alloc(0); // bytes of [pos, lineEnd)
  let complete = false; // the first segment (after the last newline) is never a complete line
  let chunk = 64 * 1024;
  while (pos > 0) {
    const n = Math.min(chunk, pos);
    chunk *= 2; // doubling keeps a very long last line linear to read
    pos -= n;
    const buf = Buffer.alloc(n);
    await fh.read(buf, 0, n, pos);
    pending = Buffer.concat([buf, pending]);
    for (let nl = pending.lastIndexOf(NEWLINE); nl >= 0; nl = pending.lastIndexOf(NEWLINE)) {
      if (complete && pos + nl + 1 > 0) {
        const json = tryJson(pending.toString('utf8', nl + 1));
        if (json.ok && isObject(json.value)) {
          if (!isReadableSchemaVersion(json.value.schemaVersion))
            assertSchemaVersion(
              key.id,
              `a line near the end of ${file}`,
              json.value.schemaVersion,
              eventIdOfRaw(pending.toString('utf8', nl + 1)),
            );
          if (isBatchEnd(json.value)) return json.value.seq;
        }
      }
      complete = true;
      pending = pending.subarray(0, nl);
    }
  }
  if (!complete) throw new SessionCorruptError(key.id, `its header (line 1 of ${file}) is incomplete`);
  return 0;
}
