import { missingSdkError } from '../client/load-mcp-sdk.js';

/** The parts of `@modelcontextprotocol/sdk` that serving agents uses. */
export interface McpServerSdk {
  readonly Server: typeof import('@modelcontextprotocol/sdk/server/index.js').Server;
  readonly StdioServerTransport: typeof import('@modelcontextprotocol/sdk/server/stdio.js').StdioServerTransport;
  readonly StreamableHTTPServerTransport: typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js').StreamableHTTPServerTransport;
  readonly CallToolRequestSchema: typeof import('@modelcontextprotocol/sdk/types.js').CallToolRequestSchema;
  readonly ListToolsRequestSchema: typeof import('@modelcontextprotocol/sdk/types.js').ListToolsRequestSchema;
  readonly isInitializeRequest: typeof import('@modelcontextprotocol/sdk/types.js').isInitializeRequest;
}

/**
 * Imports the SDK (an optional peer dependency) on first use, like `mcpTools` does: an app that
 * never serves agents never loads it, and one without it gets a `ConfigurationError` saying what to install.
 */
export async function loadServerSdk(): Promise<McpServerSdk> {
  try {
    const [server, stdio, http, types] = await Promise.all([
      import('@modelcontextprotocol/sdk/server/index.js'),
      import('@modelcontextprotocol/sdk/server/stdio.js'),
      import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]);
    return {
      Server: server.Server,
      StdioServerTransport: stdio.StdioServerTransport,
      StreamableHTTPServerTransport: http.StreamableHTTPServerTransport,
      CallToolRequestSchema: types.CallToolRequestSchema,
      ListToolsRequestSchema: types.ListToolsRequestSchema,
      isInitializeRequest: types.isInitializeRequest,
    };
  } catch (cause) {
    throw missingSdkError('mcpServer', cause);
  }
}
