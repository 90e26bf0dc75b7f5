import type { FileHandle } from 'node:fs/promises';
import type { AgentEvent } from '../../events/agent-event.js';
import { SessionCorruptError } from '../../errors/session-errors.js';
import { SESSION_SCHEMA_VERSION, type SessionKey } from '../session.js';
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
}

/**
 * Every later line: one event. `end` marks the last line of one `appendEvents` call; lines after
 * the last `end` are a batch torn by a crash and are ignored (and cut off by the next append).
 */
interface EventLine {
  readonly schemaVersion: number;
  readonly seq: number;
  readonly eventId: string;
  readonly end?: true;
  readonly event: unknown;
}

const HEADER_KIND = 'replan.session';
const NEWLINE = 0x0a;

export function encodeHeader(key: SessionKey, createdAt: number, state: Record<string, unknown>): string {
  const header: SessionHeader = {
    schemaVersion: SESSION_SCHEMA_VERSION,
    kind: HEADER_KIND,
    appName: key.appName,
    userId: key.userId,
    id: key.id,
    createdAt,
    state,
  };
  return `${JSON.stringify(header)}\n`;
}

/** The lines of one append: event `fromVersion + 1` onwards, the last one marked `end`. */
export function encodeEventLines(events: readonly AgentEvent[], fromVersion: number): string {
  let out = '';
  events.forEach((event, i) => {
    // Field order is fixed so the event id can be recovered from a line whose tail is damaged.
    const line: EventLine = {
      schemaVersion: SESSION_SCHEMA_VERSION,
      seq: fromVersion + i + 1,
      eventId: event.id,
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
  return isObject(value) && value.schemaVersion === SESSION_SCHEMA_VERSION && value.end === true && Number.isInteger(value.seq);
}

/** Checks a header line and that it belongs to `key` (two keys could only meet by a hash collision). */
export function decodeHeader(text: string | undefined, key: SessionKey): SessionHeader {
  const parsed = text === undefined ? { ok: false as const } : tryJson(text);
  if (!parsed.ok || !isObject(parsed.value)) throw new SessionCorruptError(key.id, 'its header line is not valid JSON');
  const h = parsed.value;
  assertSchemaVersion(key.id, 'the session header', h.schemaVersion);
  if (h.kind !== HEADER_KIND || typeof h.createdAt !== 'number' || !isObject(h.state))
    throw new SessionCorruptError(key.id, 'its header line is not a replan session header');
  if (h.appName !== key.appName || h.userId !== key.userId || h.id !== key.id)
    throw new SessionCorruptError(
      key.id,
      `its file holds session "${String(h.id)}" of user "${String(h.userId)}" in app "${String(h.appName)}"`,
    );
  return h as unknown as SessionHeader;
}

export interface LoadedLog {
  readonly header: SessionHeader;
  readonly events: AgentEvent[];
}

/**
 * Reads a whole session file. Bytes after the last newline, and complete lines after the last
 * batch end, were torn by a crash mid-append and are ignored. Every line before that must be a
 * valid event of this schema, numbered in order; otherwise `SessionCorruptError`.
 */
export function decodeSessionLog(data: Buffer, key: SessionKey): LoadedLog {
  const lines: string[] = [];
  for (let start = 0; ; ) {
    const nl = data.indexOf(NEWLINE, start);
    if (nl < 0) break; // the rest (if any) is a torn line
    lines.push(data.toString('utf8', start, nl));
    start = nl + 1;
  }
  const header = decodeHeader(lines[0], key);
  const parsed = lines.slice(1).map((text) => ({ text, json: tryJson(text) }));
  let committed = parsed.length - 1;
  while (committed >= 0) {
    const line = parsed[committed]!;
    if (line.json.ok && isBatchEnd(line.json.value)) break;
    if (line.json.ok && isObject(line.json.value) && line.json.value.schemaVersion !== SESSION_SCHEMA_VERSION)
      // A complete line from another schema is never "torn": refuse it rather than drop it.
      assertSchemaVersion(key.id, `line ${committed + 2}`, line.json.value.schemaVersion, eventIdOfRaw(line.text));
    committed--;
  }
  const events: AgentEvent[] = [];
  for (let i = 0; i <= committed; i++) {
    const { text, json } = parsed[i]!;
    const lineNo = i + 2;
    if (!json.ok || !isObject(json.value))
      throw new SessionCorruptError(key.id, `line ${lineNo} (event ${i + 1}) is not valid JSON`, eventIdOfRaw(text));
    const line = json.value;
    const eventId = typeof line.eventId === 'string' ? line.eventId : undefined;
    assertSchemaVersion(key.id, `event ${i + 1}`, line.schemaVersion, eventId);
    if (line.seq !== i + 1)
      throw new SessionCorruptError(
        key.id,
        `line ${lineNo} is numbered ${JSON.stringify(line.seq)} where event ${i + 1} belongs (lines lost, repeated or reordered)`,
        eventId,
      );
    events.push(decodeStoredEvent(key.id, { schemaVersion: line.schemaVersion, seq: i + 1, eventId, event: line.event }));
  }
  return { header, events };
}

/** Where the committed part of a session file ends, and the version it holds. */
export interface CommittedTail {
  readonly version: number;
  /** Byte length of the committed part; anything after it is torn. */
  readonly end: number;
}

/**
 * Finds the committed end of a session file by reading backwards from its end, so an append
 * costs the size of the last batch, not of the whole history. Lines after the last batch end
 * are torn; a complete line of another schema is refused.
 */
export async function findCommittedTail(fh: FileHandle, size: number, key: SessionKey): Promise<CommittedTail> {
  let pos = size;
  let lineEnd = size; // exclusive end of the line being gathered (before its newline)
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
      const start = pos + nl + 1;
      if (complete) {
        const found = checkLine(pending.toString('utf8', nl + 1), start, lineEnd, key);
        if (found) return found;
      }
      complete = true;
      lineEnd = pos + nl;
      pending = pending.subarray(0, nl);
    }
  }
  // Reached the first line: the header. No batch was committed after it.
  if (!complete) throw new SessionCorruptError(key.id, 'its header line is incomplete');
  return { version: 0, end: lineEnd + 1 };
}

function checkLine(text: string, start: number, end: number, key: SessionKey): CommittedTail | undefined {
  if (start === 0) return undefined; // the header; handled by the caller once the scan reaches it
  const json = tryJson(text);
  if (!json.ok || !isObject(json.value)) return undefined;
  if (json.value.schemaVersion !== SESSION_SCHEMA_VERSION)
    assertSchemaVersion(key.id, 'a line near the end', json.value.schemaVersion, eventIdOfRaw(text));
  return isBatchEnd(json.value) ? { version: json.value.seq, end: end + 1 } : undefined;
}
