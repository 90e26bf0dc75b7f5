import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileSessionStore, ReActAgent, Runner, tool } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { alive, until } from './support/processes.js';

const serverScript = fileURLToPath(new URL('./support/mcp-slow-server.ts', import.meta.url));
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const line = (message: object) => `${JSON.stringify(message)}\n`;

describe('mcpServer over stdio when its client dies', () => {
  it('stdin closing mid-call aborts the run (resumable in the store) and the process exits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-stdin-'));
    dirs.push(dir);
    const child = spawn(process.execPath, ['--import', 'tsx', serverScript], {
      env: { ...process.env, MCP_STORE_DIR: dir },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const pid = child.pid as number;
    try {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      // What a client writes before it dies mid-call: initialize, initialized, the call.
      child.stdin.write(
        line({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
        }),
      );
      await until(() => out.includes('"id":1'), 1000);
      child.stdin.write(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      child.stdin.write(line({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slowpoke', arguments: { input: 'go' } } }));
      const store = new FileSessionStore({ dir });
      const sessions = async () => (await store.list({ appName: 'mcp-test', userId: 'mcp' })).sessions;
      for (let i = 0; i < 500 && (await sessions()).length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 300)); // the tool is running
      child.stdin.end(); // the client is gone

      await until(() => !alive(pid), 500); // within 5 s, not the tool's 60
      const [session] = await sessions();
      // Resumable from the store: the same agent, its tool quick now, finishes the run.
      const slow = tool({ name: 'slow', description: 'Quick now', parameters: z.object({}), execute: () => 'done' });
      const agent = new ReActAgent({ name: 'slowpoke', model: new ScriptedModel({ responses: ['finished'] }), tools: [slow] });
      const runner = new Runner({ agent, appName: 'mcp-test', sessionStore: store });
      const resumed = await runner.resume({ userId: 'mcp', sessionId: session?.id as string }).result();
      expect(resumed.status).toBe('completed');
      expect(resumed.output).toBe('finished');
    } finally {
      if (alive(pid)) child.kill('SIGKILL');
    }
  });
});
