import type { MediaBlock } from '@replan/core';
import { mediaByteLength } from '@replan/core/agent-kit';
import type { MediaView } from '../../web/src/wire-types.js';

/**
 * The media types the studio serves inline and the page shows: raster images a browser decodes
 * without running anything, and PDF (its own viewer). Everything else — SVG and HTML above all,
 * which carry script — is served as a download only.
 */
const INLINE_MEDIA_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf']);

/** Whether bytes of `mediaType` may be served inline (else: `Content-Disposition: attachment`). */
export const servedInline = (mediaType: string): boolean => INLINE_MEDIA_TYPES.has(mediaType.toLowerCase());

/** An image or file as the page shows it: what it is, never its bytes (a blob is fetched through the blob route). */
export function mediaView(block: MediaBlock): MediaView {
  const size = mediaByteLength(block);
  const http = block.url !== undefined && /^https?:/i.test(block.url);
  return {
    kind: block.type,
    mediaType: block.mediaType,
    ...(block.type === 'file' && block.filename !== undefined ? { filename: block.filename } : {}),
    ...(size !== undefined ? { size } : {}),
    ...(block.blob !== undefined ? { blob: block.blob } : {}),
    ...(http ? { url: block.url } : {}),
    // Shown in the page as an image: a raster type only (a PDF is a file to open or save).
    shown: block.type === 'image' && block.blob !== undefined && servedInline(block.mediaType) && block.mediaType !== 'application/pdf',
  };
}
