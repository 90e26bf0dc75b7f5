import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { newClient, textOf } from './support/mcp-client.js';
import { alive, until } from './support/processes.js';

const serverScript = fileURLToPath(new URL('./support/mcp-agent-server.ts', import.meta.url));
const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});

/** Spawns the server the way an MCP client's config line does, and connects the SDK client to it. */
async function spawnServer(onElicit?: Parameters<typeof newClient>[0]) {
  const transport = new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', serverScript], stderr: 'ignore' });
  const client = newClient(onElicit);
  await client.connect(transport);
  clients.push(client);
  return { client, transport, pid: transport.pid as number };
}
type InputRequired = { inputRequired: { resumeToken: string } };

describe('mcpServer over stdio (a spawned server process)', () => {
  it('lists the agents and runs one to completion with a progress notification per plan step', async () => {
    const { client, transport } = await spawnServer();
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['planner_agent', 'deployer']);
    // What the server wrote, in order, read off the wire: the SDK's client hands a progress notification to
    // `onprogress` a microtask late, so one that arrives with the response can be dropped on a loaded
    // machine (modelcontextprotocol/typescript-sdk#2580); the server must still send one per step, first.
    const sent: string[] = [];
    const deliver = transport.onmessage;
    transport.onmessage = (message) => {
      const m = message as { method?: string; params?: { progress?: number }; result?: unknown };
      if (m.method === 'notifications/progress') sent.push(`progress ${m.params?.progress}`);
      else if (m.result !== undefined) sent.push('result');
      deliver?.(message);
    };
    const progress: number[] = [];
    const result = await client.callTool({ name: 'planner_agent', arguments: { input: 'Add 2 and 3' } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    expect(textOf(result)).toBe('The sum is 5.');
    expect(sent).toEqual(['progress 1', 'progress 2', 'result']);
    expect([[1], [1, 2]]).toContainEqual(progress);
  });

  it('answers an approval by elicitation', async () => {
    const { client } = await spawnServer(() => ({ action: 'accept', content: { approved: true } }));
    expect(textOf(await client.callTool({ name: 'deployer', arguments: { input: 'Deploy v2' } }))).toBe('Deployed v2.');
  });

  it('answers an approval by resume token, once', async () => {
    const { client } = await spawnServer();
    const first = await client.callTool({ name: 'deployer', arguments: { input: 'Deploy v2' } });
    const { resumeToken } = (first.structuredContent as InputRequired).inputRequired;
    expect(textOf(await client.callTool({ name: 'deployer', arguments: { resumeToken, answer: true } }))).toBe('Deployed v2.');
    const again = await client.callTool({ name: 'deployer', arguments: { resumeToken, answer: true } });
    expect(again.isError).toBe(true);
    expect(textOf(again)).toMatch(/already used/);
  });

  it('closing the client ends the server process (no orphan)', async () => {
    const { client, pid } = await spawnServer();
    expect(alive(pid)).toBe(true);
    await client.close();
    await until(() => !alive(pid));
  });
});
