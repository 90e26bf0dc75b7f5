import { InvalidMediaError } from '../errors/media-errors.js';
import type { ContentBlock, MediaBlock, ToolResultContent } from './content-block.js';

/** Standard base64 (RFC 4648 §4, padded): what `Buffer.toString('base64')` writes. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** A blob id: the SHA-256 of the bytes, lowercase hex. */
export const BLOB_ID = /^[0-9a-f]{64}$/;
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;
const DETAILS = new Set(['auto', 'low', 'high']);

/** Whether `text` is padded standard base64 (not base64url, no line breaks, no `data:` prefix). */
export function isBase64(text: string): boolean {
  return text.length % 4 === 0 && BASE64.test(text);
}

/** `data:<media type>[;params];base64,<payload>`: the only form of `data:` URL a media block takes. */
const DATA_URL = /^data:([^,;]*)((?:;[^,;]*)*?);base64,(.*)$/is;

/**
 * The base64 payload of a `data:` URL, or `undefined` when `url` is not one. A `data:` URL is inline
 * bytes, so it is validated, limited and stored as a blob exactly like `data`.
 */
export function dataUrlPayload(url: string): string | undefined {
  if (!/^data:/i.test(url)) return undefined;
  return DATA_URL.exec(url)?.[3] ?? '';
}

/** A block whose source is a `data:` URL given as base64 `data` instead (other blocks as they are). */
export function inlineDataUrl(block: MediaBlock): MediaBlock {
  const data = block.url === undefined ? undefined : dataUrlPayload(block.url);
  if (data === undefined) return block;
  const { url: _url, ...rest } = block;
  return { ...rest, data } as MediaBlock;
}

const DATA_URL_OK = (url: string) => {
  const match = DATA_URL.exec(url);
  return match !== null && (match[3] as string).length > 0 && isBase64(match[3] as string);
};

/** Whether a value is an image or file block whose `data` is bytes (built by hand). */
export function hasBytes(block: unknown): boolean {
  const b = block as { type?: unknown; data?: unknown } | null;
  return (b?.type === 'image' || b?.type === 'file') && b.data instanceof Uint8Array;
}

/**
 * The blocks with each image or file whose `data` is bytes (`Uint8Array`, `Buffer`) given base64
 * `data` instead, as the blocks are kept and sent; the array itself when none has bytes.
 */
export function withBase64Media<T>(blocks: readonly T[]): readonly T[] {
  if (!blocks.some(hasBytes)) return blocks;
  return blocks.map((block) => {
    if (!hasBytes(block)) return block;
    const data = (block as { data: Uint8Array }).data;
    return { ...block, data: Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64') };
  });
}

/** Whether a block is an image or a file. */
export function isMediaBlock(block: { readonly type: string } | null | undefined): block is MediaBlock {
  return block?.type === 'image' || block?.type === 'file';
}

/** What is wrong with a media block, or `undefined` when it is well formed. */
export function mediaProblem(block: MediaBlock): string | undefined {
  const b = block as unknown as Record<string, unknown>;
  if (typeof b.mediaType !== 'string' || !MEDIA_TYPE.test(b.mediaType))
    return `mediaType must be a media type such as "image/png" or "application/pdf", got ${JSON.stringify(b.mediaType)}`;
  const sources = ['url', 'data', 'blob'].filter((k) => b[k] !== undefined);
  if (sources.length !== 1) return `give exactly one of url, data (base64) or blob, got ${sources.length ? sources.join(' and ') : 'none'}`;
  if (b.url !== undefined && (typeof b.url !== 'string' || !/^(https?|data):/i.test(b.url)))
    return `url must be an http(s): or data: URL string, got ${JSON.stringify(b.url).slice(0, 80)}`;
  if (typeof b.url === 'string' && /^data:/i.test(b.url) && !DATA_URL_OK(b.url))
    return 'a data: URL must be data:<media type>;base64,<standard padded base64> (its bytes are checked like data): build the block with imageFromBytes / fileFromBytes';
  if (b.data !== undefined && (typeof b.data !== 'string' || !isBase64(b.data)))
    return typeof b.data === 'string'
      ? 'data is not valid base64 (standard alphabet, padded, no "data:" prefix or line breaks): build the block with imageFromBytes / fileFromBytes, or Buffer.from(bytes).toString("base64")'
      : `data must be a base64 string, got ${typeof b.data} (pass bytes to imageFromBytes / fileFromBytes)`;
  if (b.blob !== undefined) {
    if (typeof b.blob !== 'string' || !BLOB_ID.test(b.blob))
      return `blob must be a blob id (64 lowercase hex digits, the SHA-256 of the bytes), got ${JSON.stringify(b.blob).slice(0, 80)}`;
    if (typeof b.size !== 'number' || !Number.isInteger(b.size) || b.size < 0)
      return `a blob block needs size, its length in bytes, got ${JSON.stringify(b.size)}`;
  }
  if (b.type === 'image' && b.detail !== undefined && !DETAILS.has(b.detail as string))
    return `detail must be "auto", "low" or "high", got ${JSON.stringify(b.detail)}`;
  if (b.type === 'file' && b.filename !== undefined && typeof b.filename !== 'string')
    return `filename must be a string, got ${typeof b.filename}`;
  return undefined;
}

/** Throws `InvalidMediaError` (naming `where`) unless every media block of `blocks` is well formed. */
export function assertMediaBlocks(blocks: readonly ContentBlock[], where: string): void {
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i] as ContentBlock;
    if (!isMediaBlock(block)) continue;
    const problem = mediaProblem(block);
    if (problem) throw new InvalidMediaError(`${where}, block ${i + 1}`, problem);
  }
}

/**
 * The content blocks a tool returned, when its output is a non-empty array of text, image and
 * file blocks; otherwise `undefined` (the output is a JSON value shown as JSON).
 */
export function toolResultContent(output: unknown): readonly ToolResultContent[] | undefined {
  if (!Array.isArray(output) || output.length === 0) return undefined;
  for (const item of output) {
    const type = (item as { type?: unknown } | null)?.type;
    if (type === 'text') {
      if (typeof (item as { text?: unknown }).text !== 'string') return undefined;
    } else if (type !== 'image' && type !== 'file') return undefined;
  }
  return output as ToolResultContent[];
}

/** What is wrong with the first malformed media block of a tool's content-block output (`block 2: …`), or `undefined`. */
export function mediaContentProblem(output: unknown): string | undefined {
  const content = toolResultContent(output);
  if (!content) return undefined;
  for (let i = 0; i < content.length; i++) {
    const block = content[i] as ToolResultContent;
    const problem = isMediaBlock(block) ? mediaProblem(block) : undefined;
    if (problem) return `block ${i + 1}: ${problem}`;
  }
  return undefined;
}

/** The size in bytes of a media block's content: `size` of a blob, the decoded length of `data`, `undefined` for a URL. */
export function mediaByteLength(block: MediaBlock): number | undefined {
  if (block.blob !== undefined) return block.size;
  if (block.data === undefined) return undefined;
  const { data } = block;
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return (data.length / 4) * 3 - padding;
}

/** The bytes of a `data` block (decoded base64). */
export function mediaBytes(block: MediaBlock & { readonly data: string }): Uint8Array {
  return Buffer.from(block.data, 'base64');
}
