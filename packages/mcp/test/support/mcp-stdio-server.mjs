// Runs the test MCP server over stdio: `node mcp-stdio-server.mjs [name] [--linger] [--ignore-sigterm]`.
// Effects go to $MCP_EFFECTS_FILE; each start appends the server's pid to $MCP_STARTS_FILE (if set).
// --linger: stays alive after its stdin closes (as some servers do), so only a kill ends it.
// --ignore-sigterm: SIGTERM does nothing (as with a server stuck in a handler), so only SIGKILL ends it.
import { appendFileSync } from 'node:fs';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { buildTestServer } from './mcp-test-server-tools.mjs';

if (process.env.MCP_STARTS_FILE) appendFileSync(process.env.MCP_STARTS_FILE, `${process.pid}\n`);
if (process.argv.includes('--ignore-sigterm')) process.on('SIGTERM', () => {});
const server = buildTestServer({
  name: process.argv[2] && !process.argv[2].startsWith('--') ? process.argv[2] : 'test-server',
  effectsFile: process.env.MCP_EFFECTS_FILE,
  onCrash: () => process.exit(3),
});
await server.connect(new StdioServerTransport());
if (process.argv.includes('--linger')) setInterval(() => {}, 60_000);
