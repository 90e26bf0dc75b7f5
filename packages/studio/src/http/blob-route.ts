import type { ServerResponse } from 'node:http';
import { isMediaBlock, type AgentEvent, type MediaBlock, type SessionStore } from '@replan/core';
import { mediaOf } from '@replan/core/store-kit';
import { StudioError } from '../errors.js';
import type { SessionReader } from '../session-reader.js';
import { servedInline } from '../view/media-views.js';
import { sessionKeyOf } from './request-params.js';

/** A blob id: the SHA-256 of the bytes, 64 lowercase hex digits. */
const BLOB_ID = /^[0-9a-f]{64}$/;

/** The image or file block of the session's events that names `blob`, if any. */
function blockNaming(events: readonly AgentEvent[], blob: string): MediaBlock | undefined {
  for (const event of events) {
    const found = mediaOf(event.message).find((b) => isMediaBlock(b) && b.blob === blob);
    if (found) return found;
  }
  return undefined;
}

/** A file name safe in a header: the given name's plain characters, else the blob id's start. */
function downloadName(block: MediaBlock, blob: string): string {
  const given = block.type === 'file' ? (block.filename ?? '') : '';
  const safe = given
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, 100);
  return safe || `${block.type}-${blob.slice(0, 12)}`;
}

/**
 * `GET /api/blobs/<sha256>?app=&user=&id=`: the bytes of a blob the session's events name, for
 * the page (the caller checked origin and token). The id must be a SHA-256 in hex and named by
 * this session — another session's blob is not found here even when the store holds it. The
 * content type is the block's, served inline only for raster images and PDF; anything else (SVG,
 * HTML, …) goes out as `application/octet-stream` with `Content-Disposition: attachment`, so it
 * is saved, never rendered. `nosniff` and a sandboxing CSP hold either way.
 */
export async function serveBlob(
  store: SessionStore,
  reader: SessionReader,
  blob: string,
  query: URLSearchParams,
  response: ServerResponse,
): Promise<void> {
  if (!BLOB_ID.test(blob)) throw StudioError.request(400, 'A blob id is the SHA-256 of its bytes: 64 lowercase hex digits.');
  const key = sessionKeyOf(query);
  const session = await reader.require(key);
  const block = blockNaming(session.events, blob);
  if (!block) throw StudioError.request(404, `Session "${key.id}" names no blob ${blob}.`);
  if (!store.readBlob) throw StudioError.request(404, 'This store keeps no blobs.');
  const bytes = await store.readBlob(key, blob);
  const inline = servedInline(block.mediaType);
  response.writeHead(200, {
    'Content-Type': inline ? block.mediaType.toLowerCase() : 'application/octet-stream',
    'Content-Length': bytes.byteLength,
    'Content-Disposition': `${inline ? 'inline' : 'attachment'}; filename="${downloadName(block, blob)}"`,
    'X-Content-Type-Options': 'nosniff',
    // Opened by itself, the response runs nothing and may not be framed.
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'Cache-Control': 'private, no-store',
  });
  response.end(bytes);
}
