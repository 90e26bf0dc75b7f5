import { SessionCorruptError } from '../../errors/session-errors.js';
import type { MediaBlock } from '../../messages/content-block.js';
import { mapMessageMedia, mediaOf } from '../../messages/map-media.js';
import type { Message } from '../../messages/message.js';
import type { SessionKey } from '../session.js';
import type { SessionStore } from '../session-store.js';

/** Reads a blob's bytes by id (e.g. `(id) => store.readBlob(key, id)`). */
export type BlobReader = (id: string) => Promise<Uint8Array>;

/** Messages known to name no blob: scanned once each (a run resends its history on every call). */
const blobless = new WeakSet<Message>();

function namesBlob(message: Message): boolean {
  if (blobless.has(message)) return false;
  const found = mediaOf(message).some((b) => b.blob !== undefined);
  if (!found) blobless.add(message);
  return found;
}

/**
 * The messages with every blob-backed image or file (`{ blob, size }`) turned back into inline
 * base64 `data`, read through `read` — what a model call does just before it sends a request, so
 * the bytes are in memory only while they are sent. `cache` (blob id → base64) spares a run
 * reading the same blob on every call. Returns `messages` itself when none names a blob.
 */
export async function inlineBlobs(
  messages: readonly Message[],
  read: BlobReader,
  cache = new Map<string, string>(),
): Promise<readonly Message[]> {
  if (!messages.some(namesBlob)) return messages;
  const wanted = new Set<string>();
  for (const message of messages)
    for (const block of mediaOf(message)) if (block.blob !== undefined && !cache.has(block.blob)) wanted.add(block.blob);
  await Promise.all(
    [...wanted].map(async (id) => {
      cache.set(id, Buffer.from(await read(id)).toString('base64'));
    }),
  );
  const inline = (block: MediaBlock): MediaBlock => {
    if (block.blob === undefined) return block;
    const { blob, size: _size, ...rest } = block;
    return { ...rest, data: cache.get(blob) as string } as MediaBlock;
  };
  return messages.map((m) => mapMessageMedia(m, inline));
}

/**
 * A `BlobReader` over a session of `store`. A store without `readBlob` cannot have stored a blob,
 * so a blob named in its session is a `SessionCorruptError` naming it.
 */
export function sessionBlobReader(store: SessionStore | undefined, key: SessionKey): BlobReader {
  return (id) => {
    if (!store?.readBlob)
      return Promise.reject(new SessionCorruptError(key.id, `it names blob "${id}", but its store keeps no blobs (it has no readBlob)`));
    return store.readBlob(key, id);
  };
}
