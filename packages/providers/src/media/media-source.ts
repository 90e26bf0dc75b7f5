import { type MediaBlock, ModelError } from '@replan/core';

/** Where a block's content goes on the wire: its bytes as a base64 `data:` URL, or the URL it names. */
export type WireSource =
  | { readonly kind: 'data'; readonly url: string; readonly base64: string }
  | { readonly kind: 'url'; readonly url: string };

/**
 * The block's source as it is sent. A `data:` URL given as `url` counts as inline bytes. A blob
 * source here was not read by the model call: an `invalid_request` `ModelError`, nothing sent.
 */
export function wireSource(block: MediaBlock, model: string | undefined): WireSource {
  if (block.data !== undefined) return { kind: 'data', url: `data:${block.mediaType};base64,${block.data}`, base64: block.data };
  if (block.url !== undefined) {
    const inline = /^data:[^,]*;base64,(.*)$/is.exec(block.url);
    return inline ? { kind: 'data', url: block.url, base64: inline[1] as string } : { kind: 'url', url: block.url };
  }
  // A model call made by an agent reads blobs from the session's store just before sending; a direct call must give the bytes.
  throw new ModelError({
    kind: 'invalid_request',
    ...(model !== undefined ? { model } : {}),
    providerMessage: `an image or file names blob "${block.blob}" without its bytes`,
    hint: "blobs are read from the session store by an agent's model call; when you call a model yourself, pass the bytes as data (imageFromBytes / fileFromBytes) or a url",
  });
}

const TEXT_TYPES = new Set(['application/json', 'application/xml', 'application/x-yaml', 'application/yaml', 'application/x-ndjson']);

/** Whether a file of this type reads as text (sent as a text part rather than a file). */
export function isTextMedia(mediaType: string): boolean {
  const type = mediaType.toLowerCase().split(';')[0]?.trim() ?? '';
  return type.startsWith('text/') || TEXT_TYPES.has(type) || type.endsWith('+json') || type.endsWith('+xml');
}

/** The text part that stands for an inline text file: a header naming it, then its content. */
export function textFileText(block: MediaBlock & { readonly type: 'file' }, base64: string): string {
  const name = block.filename !== undefined ? `${block.filename} (${block.mediaType})` : block.mediaType;
  return `[file ${name}]\n${Buffer.from(base64, 'base64').toString('utf8')}`;
}

/** A file name for a provider that wants one: the block's, else `file.<subtype>` (`file.pdf`). */
export function filenameOf(block: MediaBlock & { readonly type: 'file' }): string {
  if (block.filename) return block.filename;
  const subtype = block.mediaType.split('/')[1]?.split(/[;+]/)[0] ?? 'bin';
  return `file.${subtype}`;
}
