// An MCP server process serving scripted agents over stdio, as an MCP client (Claude Code, Cursor, …) would spawn it.
// Run: node --import tsx mcp-agent-server.ts
import { mcpServer } from '../../src/index.js';
import { approvalRunner, plannerRunner } from './served-runners.js';

await mcpServer({ runners: [plannerRunner(), approvalRunner({ count: 0 })] }).serveStdio();
