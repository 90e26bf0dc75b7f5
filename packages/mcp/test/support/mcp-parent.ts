// A parent process for the no-orphans test: opens stdio MCP tools, prints the server's pid, then
// exits without calling close(). The server lingers after its stdin closes, so only replan's exit hook ends it.
// Run: node --import tsx mcp-parent.ts <server script> [server flags, e.g. --ignore-sigterm]
import { mcpTools } from '../../src/client/mcp-tools.js';

const mcp = await mcpTools({
  stdio: { command: process.execPath, args: [process.argv[2] as string, '--linger', ...process.argv.slice(3)], stderr: 'ignore' },
});
process.stdout.write(`${mcp.pid}\n`);
process.exit(0);
