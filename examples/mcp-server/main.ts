/**
 * An MCP client (the SDK's own) spawning ./server.ts over stdio, as Claude Code or Cursor would, and calling
 * the served plan–execute agent: tools/list, a call with progress per plan step, an approval returned as an
 * input-required result with a resume token, and the second call that answers it (once: a reused token is refused).
 * Offline. Run: pnpm build && npx tsx examples/mcp-server/main.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const server = fileURLToPath(new URL('./server.ts', import.meta.url));
const sessions = mkdtempSync(join(tmpdir(), 'replan-mcp-example-'));
const args = ['--import', 'tsx', server, sessions];
console.log(`MCP client config: ${JSON.stringify({ command: process.execPath, args })}`);

const text = (result: object) => ('content' in result ? (result.content as { text?: string }[])[0]?.text : undefined) ?? '';
const client = new Client({ name: 'example-client', version: '1.0.0' }); // no elicitation: questions come back with a resume token
await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'inherit' }));
try {
  const { tools } = await client.listTools();
  for (const t of tools) console.log(`tool ${t.name}: ${t.description}`);

  const first = await client.callTool(
    { name: 'researcher', arguments: { input: 'Research tidal power and publish a summary.' } },
    undefined,
    {
      onprogress: (p) => console.log(`  progress ${p.progress}: ${p.message}`),
    },
  );
  const { inputRequired } = first.structuredContent as {
    inputRequired: { resumeToken: string; interrupts: { reason: string; toolName?: string }[] };
  };
  console.log(`first call: input required (${inputRequired.interrupts.map((i) => `${i.reason} of ${i.toolName}`).join(', ')})`);

  const second = await client.callTool(
    { name: 'researcher', arguments: { resumeToken: inputRequired.resumeToken, answer: true } },
    undefined,
    {
      onprogress: (p) => console.log(`  progress ${p.progress}: ${p.message}`),
    },
  );
  console.log(`second call (approved): ${text(second)}`);

  const third = await client.callTool({ name: 'researcher', arguments: { resumeToken: inputRequired.resumeToken, answer: true } });
  console.log(`third call, same token: ${third.isError ? 'refused' : 'accepted'} — ${text(third)}`);
  if (second.isError || !third.isError) process.exitCode = 1;
} finally {
  await client.close();
  rmSync(sessions, { recursive: true, force: true });
}
