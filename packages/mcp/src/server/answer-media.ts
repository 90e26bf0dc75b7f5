import { inlineBlobs, type Message, type MediaBlock, type Runner, type SessionKey } from '@replan/core';
import { isMediaBlock } from '@replan/core/agent-kit';

/**
 * The images and files of a run's answer (its last final assistant message), their bytes inline:
 * a blob-sourced block is read from the runner's store, since the client has no other way to reach it.
 */
export async function answerMedia(answer: Message | undefined, runner: Runner, key: SessionKey): Promise<readonly MediaBlock[]> {
  if (!answer?.content.some(isMediaBlock)) return [];
  const store = runner.sessionStore;
  const [inline] = await inlineBlobs([answer], (id) =>
    store.readBlob ? store.readBlob(key, id) : Promise.reject(new Error(`the store keeps no blobs, so blob "${id}" cannot be read`)),
  );
  return (inline ?? answer).content.filter(isMediaBlock);
}

/** An MCP content item for an image or file block with inline `data`; a URL-sourced block is named in text. */
export function mcpMediaItem(block: MediaBlock): Record<string, unknown> {
  if (block.data === undefined) return { type: 'text', text: `[${block.type} ${block.mediaType}: ${block.url ?? 'not available'}]` };
  if (block.type === 'image') return { type: 'image', data: block.data, mimeType: block.mediaType };
  const name = block.filename ?? 'file';
  return { type: 'resource', resource: { uri: `replan:///${encodeURIComponent(name)}`, mimeType: block.mediaType, blob: block.data } };
}
