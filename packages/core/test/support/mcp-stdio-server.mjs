// Runs the test MCP server over stdio: `node mcp-stdio-server.mjs [name]`. Effects go to $MCP_EFFECTS_FILE.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { buildTestServer } from './mcp-test-server-tools.mjs';

const server = buildTestServer({
  name: process.argv[2] ?? 'test-server',
  effectsFile: process.env.MCP_EFFECTS_FILE,
  onCrash: () => process.exit(3),
});
await server.connect(new StdioServerTransport());
