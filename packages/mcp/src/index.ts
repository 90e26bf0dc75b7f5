/**
 * `@replan/mcp` — replan and the Model Context Protocol, both ways:
 * - `mcpTools(server, opts)`: the tools of an MCP server (stdio or Streamable HTTP) as replan tools;
 * - `mcpServer({ runners })`: replan agents served as MCP tools, over stdio or Streamable HTTP.
 *
 * Needs the optional peer `@modelcontextprotocol/sdk` (1.x), loaded on first use.
 * @module
 */
// MCP servers' tools, for agents
export { mcpTools } from './client/mcp-tools.js';
export type { McpToolset, McpToolsOptions, McpToolInfo } from './client/mcp-tools.js';
export type { McpServer, McpStdioServer, McpHttpServer } from './client/mcp-server-config.js';
export { McpError } from './client/mcp-errors.js';
export type { McpErrorKind } from './client/mcp-errors.js';

// Agents served as MCP tools
export { mcpServer } from './server/mcp-server.js';
export type { ReplanMcpServer } from './server/mcp-server.js';
export type { McpServerOptions, McpHttpOptions, McpHttpEndpoint } from './server/mcp-server-options.js';
export type { ServedAgentOptions } from './server/served-agent.js';
export type { AgentCallResult } from './server/call-results.js';
