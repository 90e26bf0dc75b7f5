import type { Tool } from '@replan/core';
import { loadMcpSdk } from './load-mcp-sdk.js';
import { openMcpToolset } from './live-toolset.js';
import type { McpServer, McpToolInfo } from './mcp-server-config.js';

export type { McpToolInfo } from './mcp-server-config.js';

/** Options of `mcpTools`. */
export interface McpToolsOptions {
  /** Which of the server's tools to offer: a list of their MCP names, or a predicate. Default: all. */
  readonly filter?: readonly string[] | ((tool: McpToolInfo) => boolean);
  /** Put before every tool name (`<prefix>_<name>`), e.g. to tell two servers' tools apart. */
  readonly prefix?: string;
  /** The server's name, used as a prefix on collision; default the name it gives in `initialize`. */
  readonly name?: string;
  /**
   * Tool names already in use next to these (the agent's other tools, another server's): a
   * colliding MCP tool is offered as `<serverName>_<name>` instead.
   */
  readonly alongside?: readonly (Tool | string)[];
  /**
   * Bounds connecting: aborted while `mcpTools` connects, it rejects with an `McpError` of kind `aborted` and ends
   * the server it started (an aborted signal starts none). Aborted later, it closes the tools (and
   * ends a stdio server), e.g. with the app's shutdown signal.
   */
  readonly signal?: AbortSignal;
  /**
   * Bounds each call, in milliseconds: a call that gets no answer in this time fails. Also bounds
   * connecting when `connectTimeoutMs` is not set. Default: the SDK's 60 s for each request.
   */
  readonly timeoutMs?: number;
  /**
   * Bounds connecting, in milliseconds (default: `timeoutMs`). Starting the server, `initialize` and
   * reading the tool list must finish within it together — also when a call reconnects — else
   * `mcpTools` rejects with an `McpError` of kind `timeout` and ends the server it started. Set it apart from
   * `timeoutMs` so that a short call timeout does not fail a server that is slow to start.
   */
  readonly connectTimeoutMs?: number;
  /** Called after the tool list changed on the server (`notifications/tools/list_changed`) and was read again. */
  readonly onToolsChanged?: (tools: readonly Tool[]) => void;
}

/** The tools of one MCP server, kept up to date, and the connection behind them. */
export interface McpToolset {
  /** The server's name (option `name`, else its `initialize` answer), used in collision prefixes. */
  readonly serverName: string;
  /**
   * The server's tools now, as replan tools for any agent. The list is read again when the server
   * says it changed; a tool keeps its name and object across refreshes, so an agent built earlier
   * keeps working (a tool the server dropped answers with an error result).
   */
  readonly tools: readonly Tool[];
  /** The pid of the stdio server process now running (undefined over HTTP or when not connected). */
  readonly pid: number | undefined;
  /** Reads the tool list again now. */
  refresh(): Promise<readonly Tool[]>;
  /** Ends the session and the stdio server process. Calls made afterwards fail. */
  close(): Promise<void>;
}

/**
 * Connects to an MCP server — a child process over stdio, or a URL over Streamable HTTP — and
 * offers its tools as replan tools. Needs `@modelcontextprotocol/sdk` (an optional peer
 * dependency, loaded only here). Close it when done: `await mcp.close()`.
 *
 * ```ts
 * const mcp = await mcpTools({ stdio: { command: 'node', args: ['server.mjs'] } });
 * const agent = new ReActAgent({ name: 'worker', model, tools: [...mcp.tools] });
 * // … run the agent …
 * await mcp.close();
 * ```
 */
export function mcpTools(server: McpServer, options: McpToolsOptions = {}): Promise<McpToolset> {
  return openMcpToolset(server, options, loadMcpSdk);
}
