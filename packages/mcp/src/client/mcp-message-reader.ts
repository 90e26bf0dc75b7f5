import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The default limit of one message from a stdio server: the SDK's own (10 MiB). */
export const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * The JSON-RPC error code of the answer that stands in for a dropped oversize one (in the range
 * JSON-RPC leaves to implementations, apart from the codes the SDK uses).
 */
export const TOO_LARGE_CODE = -32_070;

/** The `data` of that stand-in answer. */
export interface TooLargeData {
  readonly bytes: number;
  readonly limit: number;
}

/** Bytes kept of each end of an oversize message: enough to find its JSON-RPC id. */
const EDGE = 512;

interface Dropped {
  head: Buffer;
  tail: Buffer;
  bytes: number;
}
type Item = { readonly line: Buffer } | { readonly dropped: Dropped };

/**
 * Splits a stdio server's output into JSON-RPC messages (one a line), as the SDK's `ReadBuffer`
 * does, but a line over the limit does not end the session: its bytes are counted and dropped as
 * they arrive (memory stays bounded), and the request it answered gets an error answer instead
 * (code `TOO_LARGE_CODE`), so that one call fails and the healthy server is left alone.
 */
export class BoundedMessageReader {
  private parts: Buffer[] = [];
  private size = 0;
  private dropping: Dropped | undefined;
  private items: Item[] = [];
  /** Requests sent and not yet answered: an oversize answer whose id cannot be read belongs to the only one. */
  private readonly pending = new Set<string | number>();

  constructor(
    private readonly limit: number,
    private readonly parse: (line: string) => JSONRPCMessage,
  ) {}

  /** Notes a message sent to the server (a request awaits an answer; a cancellation ends the wait). */
  sent(message: JSONRPCMessage): void {
    if (!('method' in message)) return;
    if ('id' in message) this.pending.add(message.id);
    else if (message.method === 'notifications/cancelled') {
      const id = (message.params as { requestId?: string | number } | undefined)?.requestId;
      if (id !== undefined) this.pending.delete(id);
    }
  }

  append(chunk: Buffer): void {
    let start = 0;
    for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
      this.take(chunk.subarray(start, end));
      this.endLine();
      start = end + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start));
  }

  readMessage(): JSONRPCMessage | null {
    const item = this.items.shift();
    if (!item) return null;
    if ('dropped' in item) return this.answerInsteadOf(item.dropped);
    const message = this.parse(item.line.toString('utf8').replace(/\r$/, ''));
    if ('id' in message && message.id !== undefined && !('method' in message)) this.pending.delete(message.id);
    return message;
  }

  clear(): void {
    this.parts = [];
    this.size = 0;
    this.dropping = undefined;
    this.items = [];
  }

  private take(part: Buffer): void {
    if (part.length === 0) return;
    if (this.dropping) {
      this.dropping.bytes += part.length;
      this.dropping.tail = lastBytes(this.dropping.tail, part);
      return;
    }
    if (this.size + part.length <= this.limit) {
      this.parts.push(part);
      this.size += part.length;
      return;
    }
    const kept = Buffer.concat([...this.parts, part]);
    this.dropping = { head: Buffer.from(kept.subarray(0, EDGE)), tail: Buffer.from(kept.subarray(-EDGE)), bytes: kept.length };
    this.parts = [];
    this.size = 0;
  }

  private endLine(): void {
    if (this.dropping) this.items.push({ dropped: this.dropping });
    else if (this.size > 0) this.items.push({ line: this.parts.length === 1 ? (this.parts[0] as Buffer) : Buffer.concat(this.parts) });
    this.dropping = undefined;
    this.parts = [];
    this.size = 0;
  }

  private answerInsteadOf({ head, tail, bytes }: Dropped): JSONRPCMessage {
    const found = idOf(head.toString('utf8'), tail.toString('utf8'));
    const id = found === null ? undefined : (found ?? (this.pending.size === 1 ? [...this.pending][0] : undefined));
    if (id === undefined || !this.pending.has(id))
      // Thrown into the transport's onerror: a dropped request or notification from the server, or an answer to no open request.
      throw new Error(
        `dropped a message of ${bytes} bytes from the MCP server, over the limit of ${this.limit} bytes for one stdio message (stdio.maxMessageBytes); it answered no open request.`,
      );
    this.pending.delete(id);
    const data: TooLargeData = { bytes, limit: this.limit };
    return {
      jsonrpc: '2.0',
      id,
      error: { code: TOO_LARGE_CODE, message: `the answer is ${bytes} bytes, over the limit of ${this.limit} bytes`, data },
    } as JSONRPCMessage;
  }
}

/** The last `EDGE` bytes of `before` followed by `part`. */
function lastBytes(before: Buffer, part: Buffer): Buffer {
  if (part.length >= EDGE) return Buffer.from(part.subarray(-EDGE));
  const joined = Buffer.concat([before, part]);
  return joined.subarray(Math.max(0, joined.length - EDGE));
}

const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
/** A request or notification: `method` is a member of the outer object, before any nested one. */
const REQUEST = /^\s*\{[^{[]*"method"\s*:/;
/** `{"jsonrpc":"2.0","id":…` or `{"id":…` (the order of Python's SDK, among others). */
const ID_FIRST = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}`);
/** `…,"id":…}` (the order of the TypeScript SDK): only the outer object ends right after its last member. */
const ID_LAST = new RegExp(String.raw`"id"\s*:\s*${ID}\s*\}\s*$`);

/** The JSON-RPC id of an answer seen only by its two ends: undefined if they do not show it, null if it is no answer. */
export function idOf(head: string, tail: string): string | number | null | undefined {
  if (REQUEST.test(head)) return null;
  const token = ID_FIRST.exec(head)?.[1] ?? ID_LAST.exec(tail)?.[1];
  return token === undefined ? undefined : (JSON.parse(token) as string | number);
}
