import type { ImageBlock } from '@replan/core';
import { isBase64 } from '@replan/core/agent-kit';

import { isRecord } from '../reasoning/json.js';

const DATA_URL = /^data:([^;,]+);base64,(.*)$/is;

/**
 * Images a model made, from a message's (or a stream delta's) `images` — what OpenRouter and
 * LiteLLM return for image-generating models: `[{type: "image_url", image_url: {url}}]`, the URL
 * usually a base64 `data:` URL. A data URL becomes an inline image block (`data`), any other URL a
 * `url` block; entries of other shapes are skipped.
 */
export function outputImages(images: readonly unknown[]): ImageBlock[] {
  const blocks: ImageBlock[] = [];
  for (const entry of images) {
    const holder = isRecord(entry) && isRecord(entry.image_url) ? entry.image_url : entry;
    const url = isRecord(holder) && typeof holder.url === 'string' ? holder.url : undefined;
    if (!url) continue;
    const inline = DATA_URL.exec(url);
    if (inline && isBase64(inline[2] as string))
      blocks.push({ type: 'image', mediaType: (inline[1] as string).toLowerCase(), data: inline[2] as string });
    else blocks.push({ type: 'image', mediaType: inline?.[1]?.toLowerCase() ?? mediaTypeOfUrl(url), url });
  }
  return blocks;
}

function mediaTypeOfUrl(url: string): string {
  const ext = /\.(png|jpe?g|webp|gif)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase();
  return ext === 'jpg' || ext === 'jpeg' ? 'image/jpeg' : ext ? `image/${ext}` : 'image/png';
}
