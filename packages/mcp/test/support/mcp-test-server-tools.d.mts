import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

export function buildTestServer(options: { name?: string; effectsFile?: string; onCrash?: () => unknown }): McpServer;

export const TINY_PNG: string;
export const PDF_BYTES: string;
