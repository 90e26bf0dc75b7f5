import type { Part } from '@a2a-js/sdk';
import { inlineBlobs, type MediaBlock, type Message, type SessionKey, type SessionStore } from '@replan/core';
import { isMediaBlock } from '@replan/core/agent-kit';

/**
 * The images and files of a run's answer (its final assistant message), their bytes inline: a
 * blob-sourced block is read from the session's store, since the client has no other way to reach it.
 */
export async function answerMedia(answer: Message | undefined, store: SessionStore, key: SessionKey): Promise<readonly MediaBlock[]> {
  if (!answer?.content.some(isMediaBlock)) return [];
  const [inline] = await inlineBlobs([answer], (id) =>
    store.readBlob ? store.readBlob(key, id) : Promise.reject(new Error(`the store keeps no blobs, so blob "${id}" cannot be read`)),
  );
  return (inline ?? answer).content.filter(isMediaBlock);
}

/** An A2A file part for an image or file block: its bytes (or its URL), media type and name. */
export function filePart(block: MediaBlock): Part {
  const filename = block.type === 'file' ? (block.filename ?? '') : '';
  const content: Part['content'] =
    block.data !== undefined ? { $case: 'raw', value: Buffer.from(block.data, 'base64') } : { $case: 'url', value: block.url ?? '' };
  return { content, metadata: undefined, filename, mediaType: block.mediaType };
}
