import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { InvalidMediaError } from '../errors/media-errors.js';
import type { FileBlock, ImageBlock, ImageDetail } from './content-block.js';
import { mediaProblem } from './media-check.js';
import { mediaTypeFromBytes, mediaTypeFromName } from './media-types.js';

/** Options of the image helpers. */
export interface ImageOptions {
  /** The media type; by default sniffed from the bytes (PNG, JPEG, GIF, WebP) or the name's extension. */
  readonly mediaType?: string;
  readonly detail?: ImageDetail;
}

/** Options of the file helpers. */
export interface FileOptions {
  /** The media type; by default sniffed from the bytes (PDF, images) or the name's extension. */
  readonly mediaType?: string;
  /** The name the model is told; `fileFromPath` and `fileFromUrl` default it to the path's last segment. */
  readonly filename?: string;
}

type Bytes = Uint8Array | ArrayBuffer;
const toBuffer = (bytes: Bytes) =>
  bytes instanceof ArrayBuffer ? Buffer.from(bytes) : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

function checked<T extends ImageBlock | FileBlock>(block: T, where: string): T {
  const problem = mediaProblem(block);
  if (problem) throw new InvalidMediaError(where, problem);
  return block;
}

function mediaTypeOf(explicit: string | undefined, bytes: Buffer | undefined, name: string | undefined, where: string): string {
  const found = explicit ?? (bytes && mediaTypeFromBytes(bytes)) ?? (name !== undefined ? mediaTypeFromName(name) : undefined);
  if (found === undefined)
    throw new InvalidMediaError(where, 'its media type could not be told from its bytes or name: pass { mediaType }, e.g. "image/png"');
  return found;
}

/** Parses a `data:<type>;base64,<data>` URL into its media type and base64, or `undefined` for any other URL. */
function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const match = /^data:([^;,]+)((?:;[^;,]*)*);base64,(.*)$/is.exec(url);
  return match ? { mediaType: (match[1] as string).toLowerCase(), data: match[3] as string } : undefined;
}

/** An image block holding `bytes` (base64 `data`; a store moves it into a blob when it saves the event). */
export function imageFromBytes(bytes: Bytes, options: ImageOptions = {}): ImageBlock {
  const buffer = toBuffer(bytes);
  const mediaType = mediaTypeOf(options.mediaType, buffer, undefined, 'imageFromBytes');
  return checked(
    { type: 'image', mediaType, data: buffer.toString('base64'), ...(options.detail ? { detail: options.detail } : {}) },
    'imageFromBytes',
  );
}

/** An image block holding the bytes of the file at `path` (read now). */
export async function imageFromFile(path: string, options: ImageOptions = {}): Promise<ImageBlock> {
  const buffer = await readFile(path);
  const mediaType = mediaTypeOf(options.mediaType, buffer, path, `imageFromFile("${path}")`);
  return imageFromBytes(buffer, { ...options, mediaType });
}

/**
 * An image block pointing at `url` (the provider fetches it). A `data:` URL becomes an inline
 * `data` block. The media type defaults to what the URL's extension says.
 */
export function imageFromUrl(url: string | URL, options: ImageOptions = {}): ImageBlock {
  const href = String(url);
  const detail = options.detail ? { detail: options.detail } : {};
  const inline = parseDataUrl(href);
  if (inline)
    return checked({ type: 'image', mediaType: options.mediaType ?? inline.mediaType, data: inline.data, ...detail }, 'imageFromUrl');
  const mediaType = mediaTypeOf(options.mediaType, undefined, safePathname(href), `imageFromUrl("${href.slice(0, 80)}")`);
  return checked({ type: 'image', mediaType, url: href, ...detail }, 'imageFromUrl');
}

/** A file block holding `bytes` (base64 `data`). */
export function fileFromBytes(bytes: Bytes, options: FileOptions = {}): FileBlock {
  const buffer = toBuffer(bytes);
  const mediaType = mediaTypeOf(options.mediaType, buffer, options.filename, 'fileFromBytes');
  const filename = options.filename !== undefined ? { filename: options.filename } : {};
  return checked({ type: 'file', mediaType, data: buffer.toString('base64'), ...filename }, 'fileFromBytes');
}

/** A file block holding the bytes of the file at `path` (read now); `filename` defaults to its base name. */
export async function fileFromPath(path: string, options: FileOptions = {}): Promise<FileBlock> {
  const buffer = await readFile(path);
  const mediaType = mediaTypeOf(options.mediaType, buffer, path, `fileFromPath("${path}")`);
  return fileFromBytes(buffer, { mediaType, filename: options.filename ?? basename(path) });
}

/** A file block pointing at `url` (a `data:` URL becomes inline `data`); `filename` defaults to the URL path's last segment. */
export function fileFromUrl(url: string | URL, options: FileOptions = {}): FileBlock {
  const href = String(url);
  const inline = parseDataUrl(href);
  const filename = options.filename ?? (inline ? undefined : lastSegment(safePathname(href)));
  const named = filename !== undefined ? { filename } : {};
  if (inline)
    return checked({ type: 'file', mediaType: options.mediaType ?? inline.mediaType, data: inline.data, ...named }, 'fileFromUrl');
  const mediaType = mediaTypeOf(options.mediaType, undefined, safePathname(href), `fileFromUrl("${href.slice(0, 80)}")`);
  return checked({ type: 'file', mediaType, url: href, ...named }, 'fileFromUrl');
}

function safePathname(href: string): string {
  try {
    return new URL(href).pathname;
  } catch {
    throw new InvalidMediaError(`the URL "${href.slice(0, 80)}"`, 'it is not a valid absolute URL (http:, https: or data:)');
  }
}

function lastSegment(pathname: string): string | undefined {
  const raw = pathname.slice(pathname.lastIndexOf('/') + 1);
  let name = raw;
  try {
    name = decodeURIComponent(raw);
  } catch {
    // A malformed escape: the segment as written is still a usable name.
  }
  return name || undefined;
}
