import { McpToolError } from './mcp-errors.js';

/** A `tools/call` result as the SDK returns it (kept structural so public types never name the SDK's). */
export interface McpCallResult {
  readonly content?: readonly McpContent[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
  /** Old servers may answer `{ toolResult }` (protocol 2024-10-07). */
  readonly toolResult?: unknown;
}

type McpContent =
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio'; data: string; mimeType: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; text?: string; blob?: string } }
  | { type: 'resource_link'; uri: string; name?: string; mimeType?: string; description?: string }
  | { type: string; [key: string]: unknown };

/** Binary payloads are described, not pasted: base64 in a prompt costs tokens and says nothing to a text model. */
const bytesOf = (base64: string) => Math.floor((base64.length * 3) / 4) - (base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0);

function partOf(content: McpContent): unknown {
  switch (content.type) {
    case 'text':
      return { type: 'text', text: (content as { text: string }).text };
    case 'image':
    case 'audio': {
      const c = content as { type: string; data: string; mimeType: string };
      return { type: c.type, mimeType: c.mimeType, bytes: bytesOf(c.data) };
    }
    case 'resource': {
      const r = (content as { resource: { uri: string; mimeType?: string; text?: string; blob?: string } }).resource;
      return {
        type: 'resource',
        uri: r.uri,
        ...(r.mimeType ? { mimeType: r.mimeType } : {}),
        ...(r.text !== undefined ? { text: r.text } : {}),
        ...(r.blob !== undefined ? { bytes: bytesOf(r.blob) } : {}),
      };
    }
    case 'resource_link': {
      const { type, uri, name, mimeType, description } = content as {
        type: string;
        uri: string;
        name?: string;
        mimeType?: string;
        description?: string;
      };
      return { type, uri, ...(name ? { name } : {}), ...(mimeType ? { mimeType } : {}), ...(description ? { description } : {}) };
    }
    default:
      return { type: content.type };
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
 * else the content parts (images and blobs described by type and size). An `isError` result
 * throws `McpToolError` with its text, which the agent turns into an error result for the model.
 */
export function toolOutputOf(result: McpCallResult): unknown {
  const content = result.content ?? [];
  if (result.isError) {
    const text =
      textOf(content) ||
      (result.structuredContent ? JSON.stringify(result.structuredContent) : 'the tool reported an error without a message');
    throw new McpToolError(text, result.structuredContent);
  }
  if (result.structuredContent !== undefined) return result.structuredContent;
  if (!('content' in result) && 'toolResult' in result) return result.toolResult;
  if (content.every((c) => c.type === 'text')) return textOf(content);
  return content.map(partOf);
}
