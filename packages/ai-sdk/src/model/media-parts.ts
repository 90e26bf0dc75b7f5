import type { LanguageModelV3FilePart, LanguageModelV3ToolResultOutput } from '@ai-sdk/provider';
import { UnsupportedMediaError, type FileBlock, type ImageBlock, type MediaBlock, ModelError, type ToolResultContent } from '@replan/core';
import { imageTypeRefusal, unsentToolMediaText } from '@replan/core/agent-kit';

/** The model a prompt is for, as media sees it: its id, its provider, and the image types it takes. */
export interface MediaTarget {
  readonly model: string;
  /** The language model's `provider` (`anthropic.messages`), naming who refuses in errors. */
  readonly provider: string;
  /** `aiSdkModel`'s `imageTypes` (default `COMMON_IMAGE_TYPES`). */
  readonly imageTypes: ReadonlySet<string>;
}

/** An image of a type the model does not take: `UnsupportedMediaError`, before anything is sent. */
function checkImage(block: ImageBlock | FileBlock, target: MediaTarget): void {
  if (block.type !== 'image') return;
  const refusal = imageTypeRefusal(block.mediaType, target.imageTypes, 'imageTypes');
  if (refusal) throw new UnsupportedMediaError(block.mediaType, target.provider, refusal, target.model);
}

type ContentItem = Extract<LanguageModelV3ToolResultOutput, { type: 'content' }>['value'][number];

/** A `data:` URL's base64 payload and media type, or `undefined` for any other URL. */
function dataUrl(url: string): { readonly data: string; readonly mediaType: string } | undefined {
  const match = /^data:([^;,]+)?(?:;[^,]*)?;base64,(.*)$/is.exec(url);
  return match ? { mediaType: match[1] ?? 'application/octet-stream', data: match[2] ?? '' } : undefined;
}

/**
 * The bytes (base64) or URL of a media block. A `data:` URL is sent as its bytes (providers take
 * bytes, not every one takes a `data:` URL). A blob id without bytes is refused: an agent's model
 * call reads blobs from the session store before calling the model; a direct call must give them.
 */
function sourceOf(block: MediaBlock, model: string): { readonly data: string } | { readonly url: string } {
  if (block.data !== undefined) return { data: block.data };
  if (block.url !== undefined) {
    const inline = dataUrl(block.url);
    return inline ? { data: inline.data } : { url: block.url };
  }
  throw new ModelError({
    kind: 'invalid_request',
    model,
    providerMessage:
      `an ${block.type} names blob "${block.blob}" without its bytes: blobs are read from the session store by an agent's model call; ` +
      'when you call a model yourself, pass the bytes as data (imageFromBytes / fileFromBytes) or a url',
  });
}

/**
 * An image or file block as an AI SDK file part (an image is a file part with an `image/*` media
 * type). An image of a type the model does not take is `UnsupportedMediaError` (with `check`, for
 * what a person sent; an image the model itself made goes back unchecked).
 */
export function filePartOf(block: ImageBlock | FileBlock, target: MediaTarget, check = true): LanguageModelV3FilePart {
  if (check) checkImage(block, target);
  const source = sourceOf(block, target.model);
  return {
    type: 'file',
    mediaType: block.mediaType,
    data: 'url' in source ? new URL(source.url) : source.data,
    ...(block.type === 'file' && block.filename !== undefined ? { filename: block.filename } : {}),
    // OpenAI's providers read how closely to look at an image from here; the others ignore it.
    ...(block.type === 'image' && block.detail !== undefined ? { providerOptions: { openai: { imageDetail: block.detail } } } : {}),
  };
}

/**
 * A tool's content-block output (text, images, files) as the items of an AI SDK `content` tool
 * output. An image the model does not take becomes a text item saying so: the model reads why,
 * and the request still goes.
 */
export function contentItemsOf(content: readonly ToolResultContent[], target: MediaTarget): ContentItem[] {
  return content.map((block): ContentItem => {
    if (block.type === 'text') return { type: 'text', text: block.text };
    try {
      checkImage(block, target);
    } catch (error) {
      return { type: 'text', text: unsentToolMediaText(block, error as UnsupportedMediaError) };
    }
    const source = sourceOf(block, target.model);
    if (block.type === 'image')
      return 'url' in source
        ? { type: 'image-url', url: source.url }
        : { type: 'image-data', data: source.data, mediaType: block.mediaType };
    return 'url' in source
      ? { type: 'file-url', url: source.url, mediaType: block.mediaType }
      : {
          type: 'file-data',
          data: source.data,
          mediaType: block.mediaType,
          ...(block.filename !== undefined ? { filename: block.filename } : {}),
        };
  });
}

/**
 * A file the model generated (an image, usually) as a block: `image` for `image/*`, else `file`;
 * bytes as base64, a URL (a v4 model may answer one) as its `url`.
 */
export function mediaBlockOf(file: { readonly mediaType: string; readonly data: string | Uint8Array | URL }): ImageBlock | FileBlock {
  const source =
    file.data instanceof URL ? { url: file.data.href } : { data: typeof file.data === 'string' ? file.data : base64Of(file.data) };
  return file.mediaType.startsWith('image/')
    ? { type: 'image', mediaType: file.mediaType, ...source }
    : { type: 'file', mediaType: file.mediaType, ...source };
}

/**
 * Standard base64 of bytes, with the globals every runtime has (no `Buffer`: the model mapping keeps
 * to web-standard globals; the package's stream helpers use `node:crypto` and `node:fs`).
 */
function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
