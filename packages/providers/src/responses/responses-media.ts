import type { ContentBlock } from '@replan/core';
import { isMediaBlock, toolResultContent } from '@replan/core/agent-kit';
import { stringifyToolOutput } from '@replan/core';
import { type MediaApi, mediaPart, type MediaTarget, toolMediaPart } from '../media/media-parts.js';
import type { Json } from '../reasoning/json.js';

/** Text, image and file blocks as Responses input parts (`input_text`, `input_image`, `input_file`), in order. */
export function responsesParts(content: readonly ContentBlock[], media: MediaTarget, part: typeof mediaPart = mediaPart): Json[] {
  const parts: Json[] = [];
  for (const b of content)
    if (b.type === 'text') parts.push({ type: 'input_text', text: b.text });
    else if (isMediaBlock(b)) parts.push(part(b, 'responses' satisfies MediaApi, media));
  return parts;
}

/** A tool's output for `function_call_output`: the parts of returned images and files, else its text. */
export function responsesToolOutput(output: unknown, media: MediaTarget): string | Json[] {
  const content = toolResultContent(output);
  return content?.some(isMediaBlock) ? responsesParts(content, media, toolMediaPart) : stringifyToolOutput(output);
}
