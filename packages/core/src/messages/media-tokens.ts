import type { MediaBlock } from './content-block.js';
import { mediaByteLength } from './media-check.js';

/**
 * Tokens an image is counted as before a call: what a provider charges for a large image
 * (Anthropic about 1,600 for a 1092×1092 image; OpenAI 765 for 1024×1024 at high detail). The
 * estimate reads no pixels, so it takes the large case; the calibration against reported usage
 * corrects it over a run.
 */
export const IMAGE_TOKEN_ESTIMATE = 1_600;
/** Tokens of an image sent with `detail: 'low'` (OpenAI's flat rate). */
export const LOW_DETAIL_IMAGE_TOKEN_ESTIMATE = 85;
/** Bytes a token of a text-like file (text, JSON, XML, CSV) covers, as for any text. */
const TEXT_BYTES_PER_TOKEN = 4;
/**
 * Bytes a token of any other file (a PDF, mostly) covers: a provider reads a PDF as its text plus
 * an image per page, about 1,500 to 3,000 tokens for a page of 50 to 100 kB.
 */
const BINARY_BYTES_PER_TOKEN = 32;
/** A file given by URL has no known size: counted as one page. */
const UNSIZED_FILE_TOKENS = 1_600;

const isTextLike = (mediaType: string) => /^text\/|[/+](json|xml|csv|yaml)$/i.test(mediaType);

/**
 * The tokens an image or file is estimated to cost in a request: `IMAGE_TOKEN_ESTIMATE` per image
 * (`LOW_DETAIL_IMAGE_TOKEN_ESTIMATE` with `detail: 'low'`); a file by its size — a byte in four
 * for text-like files, one in 32 for others (PDFs) — or `IMAGE_TOKEN_ESTIMATE` when only its URL
 * is known. Compaction and the run's token budget use it.
 */
export function estimateMediaTokens(block: MediaBlock): number {
  if (block.type === 'image') return block.detail === 'low' ? LOW_DETAIL_IMAGE_TOKEN_ESTIMATE : IMAGE_TOKEN_ESTIMATE;
  const size = mediaByteLength(block);
  if (size === undefined) return UNSIZED_FILE_TOKENS;
  return Math.ceil(size / (isTextLike(block.mediaType) ? TEXT_BYTES_PER_TOKEN : BINARY_BYTES_PER_TOKEN));
}
