import { createHash } from 'node:crypto';
import type { ContentBlock, MediaBlock } from '../messages/content-block.js';
import { toolResultContent } from '../messages/media-check.js';
import type { Message } from '../messages/message.js';

/**
 * 32-bit digests of JSON values, messages and tool specs, for request fingerprints. FNV-1a over a
 * canonical walk (object keys sorted, `undefined` fields skipped), hashed in place without
 * building a JSON string. Objects that do not change once built (messages, tool specs, JSON
 * Schemas, settings) are digested once and the digest cached by identity, so an agent resending
 * a growing history pays for its new messages only. This tells requests apart; it is no security hash.
 */

const OFFSET = 0x811c9dc5;
const PRIME = 0x01000193;

/** Mixes a 32-bit number into a digest. */
export const mixNumber = (h: number, n: number): number => Math.imul(h ^ n, PRIME) >>> 0;

/** Mixes a string into a digest. */
export function mixString(h: number, text: string): number {
  h = mixNumber(h, text.length);
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), PRIME);
  return h >>> 0;
}

// Type tags, so `"1"`, `1` and `[1]` digest differently.
const Tag = { Null: 1, False: 2, True: 3, Number: 4, String: 5, Array: 6, Object: 7, Integer: 8 } as const;

function mixValue(h: number, value: unknown, skipKey?: string): number {
  if (value === null || value === undefined) return mixNumber(h, Tag.Null);
  switch (typeof value) {
    case 'string':
      return mixString(mixNumber(h, Tag.String), value);
    case 'number':
      // Small integers mix as themselves (no string built); others by their JSON text.
      return (value | 0) === value ? mixNumber(mixNumber(h, Tag.Integer), value) : mixString(mixNumber(h, Tag.Number), String(value));
    case 'boolean':
      return mixNumber(h, value ? Tag.True : Tag.False);
    case 'object': {
      if (Array.isArray(value)) {
        h = mixNumber(mixNumber(h, Tag.Array), value.length);
        for (const item of value) h = mixValue(h, item);
        return h;
      }
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record);
      if (keys.length > 1) keys.sort();
      h = mixNumber(h, Tag.Object);
      for (const key of keys) {
        const v = record[key];
        if (v === undefined || key === skipKey) continue;
        h = mixValue(mixString(h, key), v);
      }
      return h;
    }
    default:
      return mixNumber(h, Tag.Null); // functions, symbols, bigints: not JSON
  }
}

/** The digest of a JSON value (not cached: for small values built per request). */
export const valueDigest = (value: unknown): number => mixValue(OFFSET, value);

const cached = new WeakMap<object, number>();
const DIGEST_START = OFFSET;

/** The digest of an object that is not changed once built (a tool spec, a JSON Schema, settings), cached by identity. */
export function frozenDigest(value: object | undefined): number {
  if (value === undefined) return Tag.Null;
  let digest = cached.get(value);
  if (digest === undefined) {
    digest = valueDigest(value);
    cached.set(value, digest);
  }
  return digest;
}

/**
 * The digest of a message, tool-call ids left out (a provider mints them anew on every run).
 * Known block types are digested field by field (no key sorting); tool arguments and outputs
 * are JSON values, walked canonically.
 */
export function messageDigest(message: Message): number {
  let h = mixString(DIGEST_START, message.role);
  h = mixNumber(h, message.content.length);
  for (const block of message.content) h = blockDigest(h, block);
  return h;
}

function blockDigest(h: number, block: ContentBlock): number {
  h = mixString(h, block.type);
  switch (block.type) {
    case 'text':
      return mixString(h, block.text);
    case 'tool_call':
      h = mixValue(mixString(h, block.name), block.args);
      if (block.argsError !== undefined) h = mixString(mixString(h, block.argsError), block.rawArgs ?? '');
      return block.signature === undefined ? h : mixString(h, block.signature);
    case 'tool_result': {
      h = mixString(h, block.name);
      const content = toolResultContent(block.output);
      if (content) {
        h = mixNumber(mixNumber(h, Tag.Array), content.length);
        for (const item of content) h = blockDigest(h, item);
      } else h = mixValue(h, block.output);
      return mixNumber(h, block.isError ? Tag.True : Tag.False);
    }
    case 'image':
    case 'file':
      return mediaDigest(h, block);
    default:
      return mixValue(h, block);
  }
}

/** The blob id (SHA-256) of inline data, cached by block: a live run resends the same blocks on every call. */
const dataIds = new WeakMap<MediaBlock, string>();

/**
 * An image or file digests as its media type, options and blob id — never its bytes: inline
 * `data` counts as the SHA-256 of its bytes, which is the blob id a store gives it, so a live run
 * (data) and its resume or replay (blob) fingerprint alike. A URL counts as itself.
 */
function mediaDigest(h: number, block: MediaBlock): number {
  h = mixString(h, block.mediaType);
  if (block.type === 'image' && block.detail !== undefined) h = mixString(h, block.detail);
  if (block.type === 'file' && block.filename !== undefined) h = mixString(h, block.filename);
  if (block.url !== undefined) return mixString(mixNumber(h, 1), block.url);
  let id = block.blob;
  if (id === undefined) {
    id = dataIds.get(block);
    if (id === undefined) {
      id = createHash('sha256')
        .update(Buffer.from(block.data ?? '', 'base64'))
        .digest('hex');
      dataIds.set(block, id);
    }
  }
  return mixString(mixNumber(h, 2), id);
}

// Byte → two hex digits: `Number#toString(16)` is ~10× slower on numbers past 2^31.
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** A digest as 8 hex digits. */
export const hex8 = (digest: number): string =>
  (HEX[(digest >>> 24) & 255] as string) + HEX[(digest >>> 16) & 255] + HEX[(digest >>> 8) & 255] + HEX[digest & 255];

/** A second, independent lane (another prime, bits rotated), for 64-bit fingerprints from the same inputs. */
export const mixSecondLane = (h: number, n: number): number => Math.imul(h ^ ((n >>> 16) | (n << 16)), 0x85ebca6b) >>> 0;

/** The start value of a digest. */
export { DIGEST_START };
