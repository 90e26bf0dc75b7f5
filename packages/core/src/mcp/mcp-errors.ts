import { ReplanError } from '../errors/replan-error.js';

/**
 * An MCP server could not be reached, or dropped the connection. `mcpTools()` throws it when the
 * first connection fails; a tool call that meets it becomes an error result the model sees.
 */
export class McpConnectionError extends ReplanError {}

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
