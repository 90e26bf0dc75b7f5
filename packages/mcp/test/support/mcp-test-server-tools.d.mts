import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export function buildTestServer(options: { name?: string; effectsFile?: string; onCrash?: () => unknown }): McpServer;
