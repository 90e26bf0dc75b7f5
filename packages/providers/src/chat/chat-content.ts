import type { ContentBlock, MediaBlock, ToolResultBlock } from '@replan/core';
import { isMediaBlock, mediaPlaceholder, toolResultContent } from '@replan/core/agent-kit';
import { stringifyToolOutput } from '@replan/core';
import { mediaPart, type MediaTarget, toolMediaPart } from '../media/media-parts.js';
import type { Json } from '../reasoning/json.js';

/** The text of blocks where only text can go (system and assistant messages): each image or file as its placeholder. */
export function plainText(content: readonly ContentBlock[], separator: string): string {
  let text = '';
  let first = true;
  let afterMedia = false;
  for (const b of content) {
    if (b.type !== 'text' && !isMediaBlock(b)) continue;
    const media = b.type !== 'text';
    // A placeholder never runs into the text beside it, whatever the separator.
    const gap = first ? '' : separator || (media || afterMedia ? '\n' : '');
    text += gap + (media ? mediaPlaceholder(b) : b.text);
    first = false;
    afterMedia = media;
  }
  return text;
}

/**
 * A user message's content: its text as one string when it has no images or files (as before
 * media existed), else an array of parts in order — `text`, `image_url`, `file`.
 */
export function userContent(content: readonly ContentBlock[], media: MediaTarget): string | Json[] {
  if (!content.some(isMediaBlock))
    return content
      .filter((b) => b.type === 'text')
      .map((b) => (b as { text: string }).text)
      .join('\n\n');
  const parts: Json[] = [];
  for (const b of content)
    if (b.type === 'text') parts.push({ type: 'text', text: b.text });
    else if (isMediaBlock(b)) parts.push(mediaPart(b, 'chat', media));
  return parts;
}

/**
 * Chat Completions tool messages carry text only (on every server), so a tool result with images
 * or files is sent as its text — each image or file named where it was — and its media go into
 * the next user message as parts, after a line naming the tool call. Returns the tool message and
 * the parts for the user message (none for a result without media).
 */
export function toolResultMessage(block: ToolResultBlock, media: MediaTarget): { message: Json; attached: Json[] } {
  const content = toolResultContent(block.output);
  const blocks = content?.filter((b): b is MediaBlock => isMediaBlock(b)) ?? [];
  if (!content || !blocks.length)
    return { message: { role: 'tool', tool_call_id: block.toolCallId, content: stringifyToolOutput(block.output) }, attached: [] };
  const text = content.map((b) => (b.type === 'text' ? b.text : `${mediaPlaceholder(b)} (attached in the next user message)`)).join('\n');
  const attached: Json[] = [
    { type: 'text', text: `The images and files returned by tool call ${block.toolCallId} (${block.name}):` },
    ...blocks.map((b) => toolMediaPart(b, 'chat', media)),
  ];
  return { message: { role: 'tool', tool_call_id: block.toolCallId, content: text }, attached };
}
