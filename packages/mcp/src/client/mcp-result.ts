import { isBase64, type ToolResultContent } from '@replan/core';
import { McpError } from './mcp-errors.js';

/** A `tools/call` result as the SDK returns it (kept structural so public types never name the SDK's). */
export interface McpCallResult {
  readonly content?: readonly McpContent[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
  /** Old servers may answer `{ toolResult }` (protocol 2024-10-07). */
  readonly toolResult?: unknown;
}

type McpResource = { uri: string; mimeType?: string; text?: string; blob?: string };
type McpContent =
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio'; data: string; mimeType: string }
  | { type: 'resource'; resource: McpResource }
  | { type: 'resource_link'; uri: string; name?: string; mimeType?: string; description?: string }
  | { type: string; [key: string]: unknown };

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;
/**
 * What is passed through as a block: the images and files vision models commonly take, and text
 * files (providers send those as text). Anything else (an archive, audio, an SVG) would make the
 * next model call fail with `UnsupportedMediaError` on most servers, so it is described instead.
 */
const PASSED = /^(image\/(png|jpeg|gif|webp)|application\/(pdf|json|xml|yaml|x-yaml)|text\/[a-z0-9.+-]+)$/;
const bytesOf = (base64: string) => Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);
const text = (value: string): ToolResultContent => ({ type: 'text', text: value });

/** The last segment of a resource URI, the name a file block is given (`file:///a/b.pdf` → `b.pdf`). */
function filenameOf(uri: string): string | undefined {
  const path = uri.replace(/[?#].*$/, '');
  const last = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last) || undefined;
  } catch {
    return last || undefined;
  }
}

/**
 * Base64 with a media type as an image or file block. What a block cannot hold (no or a malformed
 * media type, data that is not base64) is described in a text block instead, so one bad part never
 * fails the whole result.
 */
function mediaOf(kind: string, data: unknown, mimeType: unknown, uri?: string): ToolResultContent {
  const where = uri ? ` ${uri}` : '';
  if (typeof data !== 'string' || !isBase64(data)) return text(`[${kind}${where}: its data is not valid base64, so it is not shown]`);
  if (typeof mimeType !== 'string' || !MEDIA_TYPE.test(mimeType))
    return text(`[${kind}${where}: ${bytesOf(data)} bytes without a media type, not shown]`);
  const mediaType = mimeType.toLowerCase();
  if (!PASSED.test(mediaType)) return text(`[${kind}${where}: ${mediaType}, ${bytesOf(data)} bytes, not shown]`);
  if (mediaType.startsWith('image/')) return { type: 'image', mediaType, data };
  const filename = uri ? filenameOf(uri) : undefined;
  return { type: 'file', mediaType, data, ...(filename !== undefined ? { filename } : {}) };
}

function blockOf(content: McpContent): ToolResultContent {
  switch (content.type) {
    case 'text':
      return text((content as { text: string }).text);
    case 'image': {
      const c = content as { data: unknown; mimeType: unknown };
      return mediaOf('image', c.data, c.mimeType);
    }
    case 'audio': {
      // Content blocks hold no audio: it is described, the model told what it missed.
      const c = content as { data: string; mimeType: string };
      return text(`[audio: ${c.mimeType}, ${typeof c.data === 'string' ? bytesOf(c.data) : 0} bytes, not shown]`);
    }
    case 'resource': {
      const r = (content as { resource: McpResource }).resource;
      if (r.text !== undefined) return text(r.text);
      return mediaOf('resource', r.blob, r.mimeType, r.uri);
    }
    case 'resource_link': {
      const { uri, name, mimeType, description } = content as { uri: string; name?: string; mimeType?: string; description?: string };
      const about = [name, mimeType, description].filter(Boolean).join(', ');
      return text(`[resource link: ${uri}${about ? ` (${about})` : ''}]`);
    }
    default:
      return text(`[${content.type} content, not shown]`);
  }
}

const textOf = (content: readonly McpContent[]) =>
  content
    .filter((c): c is { type: 'text'; text: string } => c.type === 'text')
    .map((c) => c.text)
    .join('\n');

/**
 * Turns an MCP call result into a tool output: `structuredContent` when the server sent it (its
 * text content is, by the spec, the same data serialised), else the text of a text-only result,
 * else content blocks — images and embedded blob resources as image and file blocks the model sees
 * (PNG, JPEG, GIF, WebP, PDF and text files; other types are described), text resources as text,
 * audio and resource links described in text. An `isError` result throws
 * an `McpError` of kind `tool` with its text, which the agent turns into an error result for the model.
 */
export function toolOutputOf(result: McpCallResult): unknown {
  const content = result.content ?? [];
  if (result.isError) {
    const message =
      textOf(content) ||
      (result.structuredContent ? JSON.stringify(result.structuredContent) : 'the tool reported an error without a message');
    throw new McpError('tool', message, { structuredContent: result.structuredContent });
  }
  if (result.structuredContent !== undefined) return result.structuredContent;
  if (!('content' in result) && 'toolResult' in result) return result.toolResult;
  if (content.every((c) => c.type === 'text')) return textOf(content);
  return content.map(blockOf);
}
