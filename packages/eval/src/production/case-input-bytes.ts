import { inlineBlobs, type Message, SessionCorruptError, type SessionKey, type SessionStore } from '@replan/core';
import type { SessionEvalCase } from './session-to-eval-case.js';

/**
 * The case with the bytes of the images and files its input names as blobs of `key`'s session,
 * inline: a stored session's input names blobs only its store holds, and the case must run
 * anywhere (another store, a CI machine). The recording keeps the blob ids (replay fingerprints
 * hash them, never the bytes).
 */
export async function withInputBytes(converted: SessionEvalCase, store: SessionStore, key: SessionKey): Promise<SessionEvalCase> {
  const { input } = converted.evalCase;
  if (typeof input === 'string' || Array.isArray(input)) return converted;
  const [inline] = await inlineBlobs([input as Message], (id) => {
    if (!store.readBlob)
      throw new SessionCorruptError(key.id, `its input names blob "${id}", but its store keeps no blobs (it has no readBlob)`);
    return store.readBlob(key, id);
  });
  return inline === input || !inline ? converted : { ...converted, evalCase: { ...converted.evalCase, input: inline } };
}
