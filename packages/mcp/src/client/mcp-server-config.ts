/** How to start an MCP server as a child process speaking MCP over its stdin/stdout. */
export interface McpStdioServer {
  readonly stdio: {
    readonly command: string;
    readonly args?: readonly string[];
    /**
     * The child's environment: only these variables plus a safe minimum (PATH, HOME, USER, SHELL,
     * TERM, LOGNAME) — never the whole of `process.env`, so secrets the server does not need stay out.
     */
    readonly env?: Readonly<Record<string, string>>;
    readonly cwd?: string;
    /** Where the server's stderr goes; default `'inherit'` (the app's stderr). */
    readonly stderr?: 'inherit' | 'ignore' | 'pipe';
    /**
     * The largest message the server may send (one JSON-RPC line on its stdout), in bytes; default
     * 10 MiB, the SDK's. A larger answer fails its one request with an `McpError` of kind `too_large` and the
     * server carries on; raise this for servers that return large results.
     */
    readonly maxMessageBytes?: number;
  };
}

/** An MCP server reached over Streamable HTTP. */
export interface McpHttpServer {
  readonly url: string | URL;
  /** Sent with every request, e.g. `{ Authorization: 'Bearer …' }`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The server `mcpTools` connects to: `{ stdio: { command, args } }` or `{ url }`. */
export type McpServer = McpStdioServer | McpHttpServer;

/** A tool as the MCP server lists it (what `filter` sees). */
export interface McpToolInfo {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: Record<string, unknown>;
  readonly annotations?: Record<string, unknown>;
}

/** A short description of the server for messages: its command or URL (never its headers or env). */
export const describeServer = (server: McpServer): string =>
  'stdio' in server ? [server.stdio.command, ...(server.stdio.args ?? [])].join(' ') : String(server.url);
