import { ConfigurationError } from '@replan/core';

/** The parts of `@modelcontextprotocol/sdk` that `mcpTools` uses, loaded together on first use. */
export interface McpSdk {
  readonly Client: typeof import('@modelcontextprotocol/sdk/client/index.js').Client;
  readonly StdioClientTransport: typeof import('@modelcontextprotocol/sdk/client/stdio.js').StdioClientTransport;
  readonly StreamableHTTPClientTransport: typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js').StreamableHTTPClientTransport;
  readonly StreamableHTTPError: typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js').StreamableHTTPError;
  readonly ToolListChangedNotificationSchema: typeof import('@modelcontextprotocol/sdk/types.js').ToolListChangedNotificationSchema;
  readonly McpError: typeof import('@modelcontextprotocol/sdk/types.js').McpError;
  readonly AjvJsonSchemaValidator: typeof import('@modelcontextprotocol/sdk/validation/ajv').AjvJsonSchemaValidator;
  /** Parses one line of a stdio server's output into a JSON-RPC message (as the SDK's own transport does). */
  readonly deserializeMessage: typeof import('@modelcontextprotocol/sdk/shared/stdio.js').deserializeMessage;
}

/**
 * Imports the SDK (an optional peer dependency) with dynamic `import()`: an app that never calls
 * `mcpTools` never loads it, and one without it installed gets a `ConfigurationError` saying what to install.
 */
/** `importSdk` is replaceable so a test can stand for an app without the SDK installed. */
export async function loadMcpSdk(importSdk: () => Promise<SdkModules> = importSdkModules): Promise<McpSdk> {
  try {
    const [client, stdio, http, types, ajv, stdioShared] = await importSdk();
    return {
      Client: client.Client,
      StdioClientTransport: stdio.StdioClientTransport,
      StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
      StreamableHTTPError: http.StreamableHTTPError,
      ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
      McpError: types.McpError,
      AjvJsonSchemaValidator: ajv.AjvJsonSchemaValidator,
      deserializeMessage: stdioShared.deserializeMessage,
    };
  } catch (error) {
    throw missingSdkError('mcpTools', error);
  }
}

type SdkModules = [
  typeof import('@modelcontextprotocol/sdk/client/index.js'),
  typeof import('@modelcontextprotocol/sdk/client/stdio.js'),
  typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  typeof import('@modelcontextprotocol/sdk/types.js'),
  typeof import('@modelcontextprotocol/sdk/validation/ajv'),
  typeof import('@modelcontextprotocol/sdk/shared/stdio.js'),
];

const importSdkModules = (): Promise<SdkModules> =>
  Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    import('@modelcontextprotocol/sdk/validation/ajv'),
    import('@modelcontextprotocol/sdk/shared/stdio.js'),
  ]);

/** The error for an app without the optional SDK installed, naming what needed it (`mcpTools`, `mcpServer`). */
export const missingSdkError = (needs: string, cause: unknown) =>
  new ConfigurationError(
    `${needs} needs the @modelcontextprotocol/sdk package (version 1.x), an optional peer dependency of @replan/mcp: install it (npm install @modelcontextprotocol/sdk). (${String((cause as Error)?.message ?? cause).split('\n')[0]})`,
    { cause },
  );
