import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InMemorySessionStore, Runner, type Tool, type ToolContext, toolResultsOf } from '@replan/core';
import { type McpToolset, mcpTools } from '@replan/mcp';
import { alive, until } from './support/processes.js';
import { callTools, ScriptedModel } from '@replan/core/testing';
import { createExecutor, createPlanExecuteAgent, createPlanner, createReplanner } from '@replan/planexecute';

const serverScript = fileURLToPath(new URL('./support/mcp-stdio-server.mjs', import.meta.url));
const parentScript = fileURLToPath(new URL('./support/mcp-parent.ts', import.meta.url));

let effects: string;
const opened: McpToolset[] = [];
beforeEach(() => {
  effects = join(mkdtempSync(join(tmpdir(), 'replan-mcp-stdio-')), 'effects.log');
});
afterEach(async () => {
  for (const set of opened.splice(0)) await set.close();
});

const stdio = (extra: { env?: Record<string, string>; args?: string[] } = {}) => ({
  stdio: {
    command: process.execPath,
    args: [serverScript, ...(extra.args ?? [])],
    env: { MCP_EFFECTS_FILE: effects, ...extra.env },
    stderr: 'ignore' as const,
  },
});
const open = async (...args: Parameters<typeof mcpTools>) => {
  const set = await mcpTools(...args);
  opened.push(set);
  return set;
};
const effectLines = () => (existsSync(effects) ? readFileSync(effects, 'utf8').trim().split('\n').filter(Boolean) : []);
const named = (set: McpToolset, name: string): Tool => set.tools.find((t) => t.name === name) as Tool;
const ctx = () => ({ signal: new AbortController().signal }) as unknown as ToolContext;

describe('mcpTools over stdio', () => {
  it('a plan–execute run whose executor uses the MCP server tools', async () => {
    const mcp = await open(stdio());
    const planner = new ScriptedModel({ responses: [callTools({ name: 'plan', args: { steps: ['add 2 and 3', 'record the sum'] } })] });
    const executor = new ScriptedModel({
      responses: [
        callTools({ name: 'add', args: { a: 2, b: 3 } }),
        'the sum is 5',
        callTools({ name: 'record', args: { label: 'sum=5' } }),
        'recorded',
      ],
    });
    const replanner = new ScriptedModel({
      responses: [
        callTools({ name: 'plan', args: { steps: ['record the sum'] } }),
        callTools({ name: 'respond', args: { response: 'The sum 5 is recorded.' } }),
      ],
    });
    const agent = createPlanExecuteAgent({
      planner: createPlanner({ model: planner }),
      executor: createExecutor({ model: executor, tools: [...mcp.tools] }),
      replanner: createReplanner({ model: replanner }),
    });
    const runner = new Runner({ agent, appName: 'mcp', sessionStore: new InMemorySessionStore() });
    const run = runner.run({ userId: 'u', input: 'Add 2 and 3 and record it' });
    const results = [];
    for await (const event of run) results.push(...toolResultsOf(event.message));
    const result = await run.result();
    expect(result.status).toBe('completed');
    expect(result.output).toBe('The sum 5 is recorded.');
    expect(results.map((r) => [r.name, r.output])).toEqual([
      ['add', { sum: 5 }],
      ['record', 'recorded sum=5'],
    ]);
    expect(effectLines()).toEqual(['sum=5']);
    // the executor's model was offered the MCP tools with their schemas
    expect(executor.requests[0]?.tools?.map((t) => t.name)).toContain('record');
  });

  it('the server sees only the environment it is given', async () => {
    process.env.REPLAN_TEST_SECRET = 'hunter2';
    try {
      const mcp = await open(stdio({ env: { GIVEN: 'yes' } }));
      expect(await named(mcp, 'env').execute({ variable: 'GIVEN' }, ctx())).toBe('set:yes');
      expect(await named(mcp, 'env').execute({ variable: 'REPLAN_TEST_SECRET' }, ctx())).toBe('unset');
    } finally {
      delete process.env.REPLAN_TEST_SECRET;
    }
  });

  it('when the server process dies during a call, the call is not replayed and the next call starts a new process', async () => {
    const mcp = await open(stdio());
    const first = mcp.pid as number;
    expect(alive(first)).toBe(true);
    const crash = named(mcp, 'record_then_crash').execute({ label: 'once' }, ctx());
    await expect(crash).rejects.toMatchObject({ name: 'McpError', kind: 'connection' });
    await expect(crash).rejects.toThrow(/may or may not have run; it was not sent again/);
    expect(effectLines()).toEqual(['once']);
    expect(await named(mcp, 'record').execute({ label: 'next' }, ctx())).toBe('recorded next');
    expect(mcp.pid).toBeDefined();
    expect(mcp.pid).not.toBe(first);
    expect(effectLines()).toEqual(['once', 'next']);
  });

  it('close() ends the server process, even one that outlives its stdin', async () => {
    const mcp = await open(stdio({ args: ['--linger'] }));
    const pid = mcp.pid as number;
    expect(alive(pid)).toBe(true);
    await mcp.close();
    await until(() => !alive(pid));
  });

  it('aborting the signal given to mcpTools ends the server process', async () => {
    const controller = new AbortController();
    const mcp = await open(stdio({ args: ['--linger'] }), { signal: controller.signal });
    const pid = mcp.pid as number;
    expect(alive(pid)).toBe(true);
    controller.abort();
    await until(() => !alive(pid));
    await expect(named(mcp, 'echo').execute({ text: 'x' }, ctx())).rejects.toThrow(/closed/);
  });

  it('a parent that exits without close() leaves no server behind', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', parentScript, serverScript]);
    const pid = Number(stdout.trim());
    expect(pid).toBeGreaterThan(0);
    try {
      await until(() => !alive(pid));
    } finally {
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  });

  it('names the command when the server cannot start', async () => {
    await expect(mcpTools({ stdio: { command: join(tmpdir(), 'no-such-mcp-server') } })).rejects.toThrow(
      /Could not connect to the MCP server .*no-such-mcp-server/,
    );
  });
});
