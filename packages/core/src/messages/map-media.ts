import type { ContentBlock, MediaBlock, ToolResultBlock } from './content-block.js';
import { isMediaBlock, toolResultContent } from './media-check.js';
import type { Message } from './message.js';

/**
 * Calls `fn` on every image and file of a message — its blocks and the content blocks of its tool
 * results — and returns the message with each replaced by what `fn` returned. The same message
 * (and the same blocks) where nothing changed, so untouched history keeps its identity (digests
 * and token estimates are cached by it).
 */
export function mapMessageMedia(message: Message, fn: (block: MediaBlock) => MediaBlock): Message {
  // No new array until a block changes: stores run this on every event they append, most without media.
  const blocks = message.content;
  let content: ContentBlock[] | undefined;
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i] as ContentBlock;
    const next = mapBlock(block, fn);
    if (next !== block && !content) content = blocks.slice(0, i);
    content?.push(next);
  }
  return content ? { ...message, content } : message;
}

function mapBlock(block: ContentBlock, fn: (block: MediaBlock) => MediaBlock): ContentBlock {
  if (isMediaBlock(block)) return fn(block);
  if (block.type !== 'tool_result') return block;
  const items = toolResultContent(block.output);
  if (!items) return block;
  let changed = false;
  const output = items.map((item) => {
    const next = isMediaBlock(item) ? fn(item) : item;
    if (next !== item) changed = true;
    return next;
  });
  return changed ? ({ ...block, output } satisfies ToolResultBlock) : block;
}

/** Every image and file of a message (its blocks and its tool results' content blocks), in order. */
export function mediaOf(message: Message | undefined): MediaBlock[] {
  const found: MediaBlock[] = [];
  if (message)
    mapMessageMedia(message, (block) => {
      found.push(block);
      return block;
    });
  return found;
}
