import type { MediaBlock } from '@replan/core';
import { imageTypeRefusal, normalMediaType, unsentToolMediaText } from '@replan/core/agent-kit';
import { UnsupportedMediaError } from '../errors/media-errors.js';
import type { Json } from '../reasoning/json.js';
import type { MediaProfile } from './media-profile.js';
import { filenameOf, isTextMedia, textFileText, wireSource } from './media-source.js';

/** Which wire format a part is for. */
export type MediaApi = 'chat' | 'responses';

/** The server a request goes to, as media sees it. */
export interface MediaTarget {
  readonly profile: MediaProfile;
  readonly model?: string | undefined;
}

const list = (types: ReadonlySet<string>) => [...types].join(', ');

/**
 * An image or file block as a content part: Chat Completions `image_url` (a URL or a `data:`
 * URL) and `file` (`file_data` with a `data:` URL, or a URL where the server takes one), Responses
 * `input_image` and `input_file`; a text file given inline becomes a text part. Throws
 * `UnsupportedMediaError` for a type or a source the server does not take.
 */
export function mediaPart(block: MediaBlock, api: MediaApi, target: MediaTarget): Json {
  const { profile } = target;
  const source = wireSource(block, target.model);
  const type = normalMediaType(block.mediaType);
  const refuse = (reason: string) => new UnsupportedMediaError(block.mediaType, profile.label, reason, target.model);

  if (block.type === 'image') {
    // Chat Completions models take `imageTypes` (OpenAIChatModel), which replace the profile's list.
    const refusal = imageTypeRefusal(type, profile.images, api === 'chat' ? 'imageTypes' : undefined);
    if (refusal) throw refuse(refusal);
    if (source.kind === 'url' && !profile.imageUrls)
      throw refuse('it takes images inline only, not by URL; fetch the image and send its bytes (imageFromBytes)');
    if (api === 'responses') return { type: 'input_image', image_url: source.url, detail: block.detail ?? 'auto' };
    return { type: 'image_url', image_url: { url: source.url, ...(profile.detail && block.detail ? { detail: block.detail } : {}) } };
  }

  if (source.kind === 'data' && isTextMedia(type)) {
    const text = textFileText(block, source.base64);
    return api === 'responses' ? { type: 'input_text', text } : { type: 'text', text };
  }
  if (profile.files && !profile.files.has(type))
    throw refuse(
      profile.files.size
        ? `it takes ${list(profile.files)} files (and text files given inline, sent as text)`
        : 'it takes no files (only text files given inline, sent as text); send the content another way, or use a server that takes files',
    );
  if (source.kind === 'url') {
    if (api === 'responses') return { type: 'input_file', file_url: source.url };
    if (profile.fileUrls === 'none')
      throw refuse('it takes files inline only, not by URL; fetch the file and send its bytes (fileFromBytes)');
    if (profile.fileUrls === 'file_id') return { type: 'file', file: { file_id: source.url, format: block.mediaType } };
    return { type: 'file', file: { filename: filenameOf(block), file_data: source.url } };
  }
  if (api === 'responses') return { type: 'input_file', filename: filenameOf(block), file_data: source.url };
  return { type: 'file', file: { filename: filenameOf(block), file_data: source.url } };
}

/**
 * `mediaPart` for an image or file a tool returned: one the server does not take becomes a text
 * part saying so (the model reads why, and the run goes on), not a request refused whole.
 */
export function toolMediaPart(block: MediaBlock, api: MediaApi, target: MediaTarget): Json {
  try {
    return mediaPart(block, api, target);
  } catch (error) {
    if (!(error instanceof UnsupportedMediaError)) throw error;
    const text = unsentToolMediaText(block, error);
    return api === 'responses' ? { type: 'input_text', text } : { type: 'text', text };
  }
}
