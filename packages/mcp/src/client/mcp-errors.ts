import { ReplanError } from '@replan/core';

/**
 * What went wrong with an MCP server or one of its tools:
 * - `connection`: the server could not be reached, or dropped the connection. `mcpTools()` throws it
 *   when the first connection fails; a tool call that meets it becomes an error result the model sees;
 * - `timeout`: connecting (starting it, `initialize`, reading its tool list) took longer than the
 *   `timeoutMs` given to `mcpTools` (`timeoutMs` says the bound). The connection was abandoned and a
 *   stdio server process ended;
 * - `aborted`: the `signal` given to `mcpTools` was aborted while it connected (`cause`: the signal's
 *   reason). The connection was abandoned and a stdio server process ended;
 * - `too_large`: a stdio server sent a message (a tool's result, a tool list) larger than
 *   `stdio.maxMessageBytes` (default 10 MiB; `bytes` and `limit` say the sizes). That message was
 *   dropped and the request it answered fails; the session and the server carry on;
 * - `tool`: a tool answered with `isError: true`; the message is the tool's own (untrusted) text,
 *   `structuredContent` what it sent with it.
 *
 * `connection`, `timeout` and `aborted` are the connection failures (`isConnectionFailure`).
 */
export type McpErrorKind = 'connection' | 'timeout' | 'aborted' | 'too_large' | 'tool';

/** An MCP server or tool failed; `kind` says how. The one error class of `@replan/mcp`. */
export class McpError extends ReplanError {
  /** The connect bound that was exceeded, in ms (`kind: 'timeout'`). */
  readonly timeoutMs: number | undefined;
  /** The size of the dropped message in bytes (`kind: 'too_large'`). */
  readonly bytes: number | undefined;
  /** The limit it exceeded, `stdio.maxMessageBytes`, in bytes (`kind: 'too_large'`). */
  readonly limit: number | undefined;
  /** The tool result's `structuredContent`, when the server sent one (`kind: 'tool'`). */
  readonly structuredContent: unknown;

  constructor(
    readonly kind: McpErrorKind,
    message: string,
    details: {
      readonly cause?: unknown;
      readonly timeoutMs?: number;
      readonly bytes?: number;
      readonly limit?: number;
      readonly structuredContent?: unknown;
    } = {},
  ) {
    super(message, details.cause !== undefined ? { cause: details.cause } : undefined);
    this.timeoutMs = details.timeoutMs;
    this.bytes = details.bytes;
    this.limit = details.limit;
    this.structuredContent = details.structuredContent;
  }

  /** True for `connection`, `timeout` and `aborted`: the server was not (or no longer) reachable. */
  get isConnectionFailure(): boolean {
    return this.kind === 'connection' || this.kind === 'timeout' || this.kind === 'aborted';
  }
}
