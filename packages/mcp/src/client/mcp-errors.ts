import { ReplanError } from '@replan/core';

/**
 * An MCP server could not be reached, or dropped the connection. `mcpTools()` throws it when the
 * first connection fails; a tool call that meets it becomes an error result the model sees.
 */
export class McpConnectionError extends ReplanError {}

/**
 * Connecting to an MCP server (starting it, `initialize`, reading its tool list) took longer than
 * the `timeoutMs` given to `mcpTools`. The connection was abandoned and a stdio server process ended.
 */
export class McpTimeoutError extends McpConnectionError {
  constructor(
    message: string,
    /** The bound that was exceeded, in milliseconds. */
    readonly timeoutMs: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The `signal` given to `mcpTools` was aborted while it connected. The connection was abandoned and a
 * stdio server process ended; `cause` is the signal's reason.
 */
export class McpAbortedError extends McpConnectionError {}

/**
 * A stdio MCP server sent a message (a tool's result, a tool list) larger than the limit of one
 * message, `stdio.maxMessageBytes` (default 10 MiB). That message was dropped and the request it
 * answered fails; the session and the server process carry on, and the next call works.
 */
export class McpResultTooLargeError extends ReplanError {
  constructor(
    message: string,
    /** The size of the dropped message in bytes. */
    readonly bytes: number,
    /** The limit it exceeded (`stdio.maxMessageBytes`), in bytes. */
    readonly limit: number,
  ) {
    super(message);
  }
}

/** An MCP tool answered with `isError: true`; its message is the tool's own (untrusted) text. */
export class McpToolError extends ReplanError {
  constructor(
    message: string,
    /** The result's `structuredContent`, when the server sent one. */
    readonly structuredContent?: unknown,
  ) {
    super(message);
  }
}
