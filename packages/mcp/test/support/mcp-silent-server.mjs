// An MCP stdio server that never answers: it reads its stdin and says nothing, and stays alive after
// its stdin closes. `node mcp-silent-server.mjs <pid file>`: appends its pid to the file on start, so a
// test can check that the process is gone after mcpTools gave up on it.
import { appendFileSync } from 'node:fs';

appendFileSync(process.argv[2], `${process.pid}\n`);
process.stdin.on('data', () => {});
setInterval(() => {}, 60_000);
