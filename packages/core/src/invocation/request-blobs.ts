import type { Message } from '../messages/message.js';
import { mediaOf } from '../messages/map-media.js';
import type { ModelRequest } from '../models/chat-model.js';
import { inlineBlobs, sessionBlobReader } from '../sessions/blobs/inline-blobs.js';
import type { InvocationServices } from './invocation-context.js';
import { checkedPrefix, type PrefixMemo } from './checked-prefix.js';

/**
 * Per invocation: its blobs already read (blob id → base64), so a run reads a blob once, not on
 * every call; and how much of the last request's head names no blob (`checkedPrefix`).
 */
interface BlobMemo extends PrefixMemo {
  readonly cache: Map<string, string>;
}
const memos = new WeakMap<InvocationServices, BlobMemo>();

const namesNoBlob = (message: Message): boolean => !mediaOf(message).some((b) => b.blob !== undefined);

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
  const clean = checkedPrefix(memo, request.messages, namesNoBlob);
  if (clean === request.messages.length) return request;
  const messages = await inlineBlobs(request.messages, sessionBlobReader(services.store, services.session), memo.cache);
  return messages === request.messages ? request : { ...request, messages };
}
