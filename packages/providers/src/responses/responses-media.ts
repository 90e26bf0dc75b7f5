import type { ContentBlock } from '@replan/core';
import { isMediaBlock, stringifyToolOutput, toolResultContent } from '@replan/core';
import { mediaPart, type MediaTarget } from '../media/media-parts.js';
import type { Json } from '../reasoning/json.js';

/** Text, image and file blocks as Responses input parts (`input_text`, `input_image`, `input_file`), in order. */
export function responsesParts(content: readonly ContentBlock[], media: MediaTarget): Json[] {
  const parts: Json[] = [];
  for (const b of content)
    if (b.type === 'text') parts.push({ type: 'input_text', text: b.text });
    else if (isMediaBlock(b)) parts.push(mediaPart(b, 'responses', media));
  return parts;
}

/** A tool's output for `function_call_output`: the parts of returned images and files, else its text. */
export function responsesToolOutput(output: unknown, media: MediaTarget): string | Json[] {
  const content = toolResultContent(output);
  return content?.some(isMediaBlock) ? responsesParts(content, media) : stringifyToolOutput(output);
}
