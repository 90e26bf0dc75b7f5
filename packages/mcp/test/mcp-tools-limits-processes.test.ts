import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Tool, ToolContext } from '@replan/core';
import { McpError, type McpToolset, mcpTools } from '@replan/mcp';
import { alive, until } from './support/processes.js';

// The bounds of mcpTools against real child processes: a server that never answers, one whose answer
// is larger than a stdio message may be, one that ignores SIGTERM.
const serverScript = fileURLToPath(new URL('./support/mcp-stdio-server.mjs', import.meta.url));
const silentScript = fileURLToPath(new URL('./support/mcp-silent-server.mjs', import.meta.url));
const parentScript = fileURLToPath(new URL('./support/mcp-parent.ts', import.meta.url));

let dir: string;
const opened: McpToolset[] = [];
const started: number[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'replan-mcp-limits-'));
});
afterEach(async () => {
  for (const set of opened.splice(0)) await set.close();
  // Even when a test failed before it saw them: no server outlives the test.
  for (const pid of [...started.splice(0), ...pidsIn(join(dir, 'pids'))]) if (alive(pid)) process.kill(pid, 'SIGKILL');
});

const pidsIn = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map(Number) : []);
const named = (set: McpToolset, name: string): Tool => set.tools.find((t) => t.name === name) as Tool;
const ctx = () => ({ signal: new AbortController().signal }) as unknown as ToolContext;

/** The server that reads its stdin and never answers; its pids go to `pids`. */
const silent = (pids: string) => ({ stdio: { command: process.execPath, args: [silentScript, pids], stderr: 'ignore' as const } });
const stdio = (starts: string, extra: { args?: string[]; maxMessageBytes?: number } = {}) => ({
  stdio: {
    command: process.execPath,
    args: [serverScript, ...(extra.args ?? [])],
    env: { MCP_STARTS_FILE: starts },
    stderr: 'ignore' as const,
    ...(extra.maxMessageBytes !== undefined ? { maxMessageBytes: extra.maxMessageBytes } : {}),
  },
});
const open = async (...args: Parameters<typeof mcpTools>) => {
  const set = await mcpTools(...args);
  opened.push(set);
  return set;
};
const rejectionOf = async (promise: unknown): Promise<Error> => {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
};

describe('mcpTools bounds connecting', () => {
  it('timeoutMs bounds a server that never answers initialize, and its process is ended', async () => {
    const pids = join(dir, 'pids');
    const error = await rejectionOf(mcpTools(silent(pids), { timeoutMs: 1000 }));
    started.push(...pidsIn(pids));
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ kind: 'timeout', isConnectionFailure: true });
    expect((error as McpError).timeoutMs).toBe(1000);
    expect(error.message).toMatch(/within 1000 ms.*raise connectTimeoutMs/s);
    expect(pidsIn(pids)).toHaveLength(1);
    await until(() => pidsIn(pids).every((pid) => !alive(pid)), 1000); // stdin closed, SIGTERM after 2 s
  });

  it('an aborted signal bounds a server that never answers initialize, and its process is ended', async () => {
    const pids = join(dir, 'pids');
    const controller = new AbortController();
    const opening = rejectionOf(mcpTools(silent(pids), { signal: controller.signal }));
    await until(() => pidsIn(pids).length === 1); // the server is up and has been sent initialize
    started.push(...pidsIn(pids));
    controller.abort();
    const error = await opening;
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ kind: 'aborted', isConnectionFailure: true });
    expect(error.message).toMatch(/aborted/);
    await until(() => pidsIn(pids).every((pid) => !alive(pid)), 1000); // stdin closed, SIGTERM after 2 s
  });

  it('a signal aborted before the call starts no server', async () => {
    const pids = join(dir, 'pids');
    const controller = new AbortController();
    controller.abort();
    await expect(mcpTools(silent(pids), { signal: controller.signal })).rejects.toMatchObject({ kind: 'aborted' });
    expect(pidsIn(pids)).toEqual([]);
  });
});

describe('a result larger than a stdio message may be', () => {
  it('fails that call with a too_large McpError and leaves the server running for the next call', async () => {
    const starts = join(dir, 'starts');
    const mcp = await open(stdio(starts));
    const pid = mcp.pid as number;
    const error = await rejectionOf(named(mcp, 'big').execute({ bytes: 20 * 1024 * 1024 }, ctx()));
    expect(error).toMatchObject({ kind: 'too_large', isConnectionFailure: false });
    expect((error as McpError).limit).toBe(10 * 1024 * 1024);
    expect((error as McpError).bytes).toBeGreaterThan(20 * 1024 * 1024);
    expect(error.message).toMatch(/"big".*10485760 bytes.*maxMessageBytes/s);
    expect(error.message).not.toMatch(/may or may not have run/);
    // the same process answers the next call: no restart
    expect(await named(mcp, 'echo').execute({ text: 'after' }, ctx())).toBe('echo: after');
    expect(mcp.pid).toBe(pid);
    expect(alive(pid)).toBe(true);
    expect(pidsIn(starts)).toEqual([pid]);
  });

  it('stdio.maxMessageBytes raises the limit', async () => {
    const mcp = await open(stdio(join(dir, 'starts'), { maxMessageBytes: 32 * 1024 * 1024 }));
    const text = (await named(mcp, 'big').execute({ bytes: 20 * 1024 * 1024 }, ctx())) as string;
    expect(text.length).toBe(20 * 1024 * 1024);
  });

  it('stdio.maxMessageBytes must be a positive whole number', async () => {
    await expect(mcpTools(stdio(join(dir, 'starts'), { maxMessageBytes: 0 }))).rejects.toThrow(/maxMessageBytes/);
  });
});

describe('a server that ignores SIGTERM', () => {
  it('is killed by close()', async () => {
    const mcp = await open(stdio(join(dir, 'starts'), { args: ['--linger', '--ignore-sigterm'] }));
    const pid = mcp.pid as number;
    started.push(pid);
    expect(alive(pid)).toBe(true);
    await mcp.close();
    await until(() => !alive(pid), 1000);
  });

  it('is killed when its owner exits without close()', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', parentScript, serverScript, '--ignore-sigterm']);
    const pid = Number(stdout.trim());
    expect(pid).toBeGreaterThan(0);
    started.push(pid);
    await until(() => !alive(pid), 1000);
  });
});
