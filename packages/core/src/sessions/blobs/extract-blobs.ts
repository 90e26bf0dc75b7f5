import type { AgentEvent } from '../../events/agent-event.js';
import { blobTooLarge } from '../../errors/blob-errors.js';
import { InvalidMediaError } from '../../errors/media-errors.js';
import type { MediaBlock } from '../../messages/content-block.js';
import { inlineDataUrl, mediaProblem } from '../../messages/media-check.js';
import { mapMessageMedia } from '../../messages/map-media.js';
import { blobIdOf } from './blob-id.js';
import { assertSessionBlobTotal, type ResolvedBlobLimits } from './blob-limits.js';

/** The bytes of one image or file an append brings, to be stored as a blob before its events. */
export interface NewBlob {
  /** The SHA-256 of `bytes`, hex. */
  readonly id: string;
  readonly bytes: Buffer;
  readonly mediaType: string;
}

/** What `extractBlobs` made of an append. */
export interface ExtractedBlobs {
  /** The events as they are stored: inline `data` replaced by `{ blob, size }` (the same objects where nothing changed). */
  readonly events: AgentEvent[];
  /** The distinct blobs the append brings, in order of first appearance. */
  readonly blobs: NewBlob[];
  /** Blob ids the events named already (`blob` sources given by the caller): the store must hold them. */
  readonly named: Set<string>;
}

/**
 * Takes the bytes out of an append: every image or file with inline `data` (in a message or in a
 * tool result's content blocks), or a `data:` URL (inline bytes too), becomes `{ blob: sha256, size, mediaType }`, and its bytes a
 * `NewBlob`. A block over `maxBlobBytes` fails with a `BlobLimitError` (scope `blob`), bad base64 with
 * `InvalidMediaError` — before anything is written. Events without media are returned as they are.
 */
export function extractBlobs(sessionId: string, events: readonly AgentEvent[], limits: ResolvedBlobLimits): ExtractedBlobs {
  const blobs = new Map<string, NewBlob>();
  const named = new Set<string>();
  const take = (given: MediaBlock): MediaBlock => {
    if (given.url !== undefined) {
      const problem = mediaProblem(given);
      if (problem) throw new InvalidMediaError(`session "${sessionId}"`, problem);
    }
    const block = inlineDataUrl(given);
    if (block.blob !== undefined) named.add(block.blob);
    if (block.data === undefined) return block;
    const problem = mediaProblem(block);
    if (problem) throw new InvalidMediaError(`session "${sessionId}"`, problem);
    const bytes = Buffer.from(block.data, 'base64');
    if (bytes.length > limits.maxBlobBytes) throw blobTooLarge(sessionId, block.mediaType, bytes.length, limits.maxBlobBytes);
    const id = blobIdOf(bytes);
    if (!blobs.has(id)) blobs.set(id, { id, bytes, mediaType: block.mediaType });
    const { data: _data, ...rest } = block;
    return { ...rest, blob: id, size: bytes.length } as MediaBlock;
  };
  const out = events.map((event) => {
    if (!event.message) return event;
    const message = mapMessageMedia(event.message, take);
    return message === event.message ? event : { ...event, message };
  });
  for (const id of blobs.keys()) named.delete(id);
  return { events: out, blobs: [...blobs.values()], named };
}

/**
 * The error for an append that names a blob the session does not hold: a blob belongs to the
 * session that stored it, so media from another session must come as `data`.
 */
export function unheldBlobError(sessionId: string, id: string): InvalidMediaError {
  return new InvalidMediaError(
    `session "${sessionId}"`,
    `it names blob "${id}", which this session does not hold; nothing was written. Pass the bytes as data (imageFromBytes / fileFromBytes): a blob belongs to the session that stored it`,
  );
}

/**
 * The blobs of an append that the session does not hold yet (`held`: its blob ids and sizes),
 * after checking that it holds every blob the events name (else `unheldBlobError`) and that the
 * new ones fit `maxSessionBlobBytes` (else a `BlobLimitError`, scope `session`). What every store checks
 * before it writes an append's blobs.
 */
export function blobsToStore(
  sessionId: string,
  found: ExtractedBlobs,
  held: ReadonlyMap<string, number>,
  limits: ResolvedBlobLimits,
): NewBlob[] {
  for (const id of found.named) if (!held.has(id)) throw unheldBlobError(sessionId, id);
  const fresh = found.blobs.filter((b) => !held.has(b.id));
  let stored = 0;
  for (const size of held.values()) stored += size;
  assertSessionBlobTotal(
    sessionId,
    stored,
    fresh.reduce((n, b) => n + b.bytes.length, 0),
    limits,
  );
  return fresh;
}
