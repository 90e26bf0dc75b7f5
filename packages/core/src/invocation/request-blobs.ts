import type { Message } from '../messages/message.js';
import { mediaOf } from '../messages/map-media.js';
import type { ModelRequest } from '../models/chat-model.js';
import { inlineBlobs, sessionBlobReader } from '../sessions/blobs/inline-blobs.js';
import type { InvocationServices } from './invocation-context.js';

/**
 * Per invocation: its blobs already read (blob id → base64), so a run reads a blob once, not on
 * every call; and the last request's messages known to name no blob, so a call checks only the
 * messages added since (a run resends its history on every call: checking all of it each time
 * made every call cost as much as the history is long).
 */
interface BlobMemo {
  readonly cache: Map<string, string>;
  /** The last request's messages and how many of them, from the start, name no blob. */
  prev: readonly Message[] | undefined;
  clean: number;
}
const memos = new WeakMap<InvocationServices, BlobMemo>();

const namesBlob = (message: Message): boolean => mediaOf(message).some((b) => b.blob !== undefined);

/** How many leading messages name no blob, reusing what the last request of the run showed. */
function cleanPrefix(memo: BlobMemo, messages: readonly Message[]): number {
  const prev = memo.prev;
  let i = 0;
  if (prev) {
    // The same array grown by appending (the loop's own list), or a new one with the same head.
    const known = Math.min(memo.clean, messages.length);
    if (prev === messages) i = known;
    else while (i < known && messages[i] === prev[i]) i++;
  }
  while (i < messages.length && !namesBlob(messages[i] as Message)) i++;
  return i;
}

/**
 * The request as it is sent: images and files the session keeps as blobs get their bytes back
 * (read from the run's store now, just before the call). Budgets, observers and the replay
 * fingerprint see the request as built — blob ids and sizes, never the bytes.
 */
export async function requestWithBlobBytes(services: InvocationServices, request: ModelRequest): Promise<ModelRequest> {
  let memo = memos.get(services);
  if (!memo) {
    memo = { cache: new Map(), prev: undefined, clean: 0 };
    memos.set(services, memo);
  }
  const clean = cleanPrefix(memo, request.messages);
  memo.prev = request.messages;
  memo.clean = clean;
  if (clean === request.messages.length) return request;
  const messages = await inlineBlobs(request.messages, sessionBlobReader(services.store, services.session), memo.cache);
  return messages === request.messages ? request : { ...request, messages };
}
