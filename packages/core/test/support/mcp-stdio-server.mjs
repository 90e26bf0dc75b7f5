// Runs the test MCP server over stdio: `node mcp-stdio-server.mjs [name] [--linger]`. Effects go to $MCP_EFFECTS_FILE.
// --linger: stays alive after its stdin closes (as some servers do), so only a kill ends it.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { buildTestServer } from './mcp-test-server-tools.mjs';

const server = buildTestServer({
  name: process.argv[2] && process.argv[2] !== '--linger' ? process.argv[2] : 'test-server',
  effectsFile: process.env.MCP_EFFECTS_FILE,
  onCrash: () => process.exit(3),
});
await server.connect(new StdioServerTransport());
if (process.argv.includes('--linger')) setInterval(() => {}, 60_000);
