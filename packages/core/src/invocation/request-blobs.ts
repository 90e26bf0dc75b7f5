import type { ModelRequest } from '../models/chat-model.js';
import { inlineBlobs, sessionBlobReader } from '../sessions/blobs/inline-blobs.js';
import type { InvocationServices } from './invocation-context.js';

/** Each invocation's blobs already read (blob id → base64), so a run reads a blob once, not on every call. */
const readBlobs = new WeakMap<InvocationServices, Map<string, string>>();

/**
 * The request as it is sent: images and files the session keeps as blobs get their bytes back
 * (read from the run's store now, just before the call). Budgets, observers and the replay
 * fingerprint see the request as built — blob ids and sizes, never the bytes.
 */
export async function requestWithBlobBytes(services: InvocationServices, request: ModelRequest): Promise<ModelRequest> {
  let cache = readBlobs.get(services);
  if (!cache) {
    cache = new Map();
    readBlobs.set(services, cache);
  }
  const messages = await inlineBlobs(request.messages, sessionBlobReader(services.store, services.session), cache);
  return messages === request.messages ? request : { ...request, messages };
}
