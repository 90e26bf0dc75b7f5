import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileSessionStore } from '@replan/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/run-cli.js';
import { CliUsageError } from '../src/index.js';
import { rawRequest, tokenOf } from './support/http.js';
import { approvalScenario, graphScenario } from './support/scenarios.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'replan-cli-'));
  const store = new FileSessionStore({ dir });
  await approvalScenario(store, 'cli-app').run({ userId: 'ana', sessionId: 'waiting', input: 'Send the report' }).result();
  const graph = graphScenario(store, 'cli-app', 0);
  graph.release();
  await graph.runner.run({ userId: 'ana', sessionId: 'graph', input: 'Research' }).result();
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function cli(...argv: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const code = await runCli(argv, { out: (t) => lines.push(t), stopped: Promise.resolve() });
  return { code, out: lines.join('\n') };
}

describe('replan CLI', () => {
  it('sessions lists one user’s sessions with their status', async () => {
    const { code, out } = await cli('sessions', '--store', dir, '--app', 'cli-app', '--user', 'ana');
    expect(code).toBe(0);
    expect(out).toMatch(/waiting\s+interrupted/);
    expect(out).toMatch(/graph\s+completed/);
  });

  it('show prints the session as the live-run tree, with tokens per step (app and user found in the directory)', async () => {
    const { code, out } = await cli('show', 'graph', '--store', dir);
    expect(code).toBe(0);
    expect(out).toContain('session graph · app cli-app · user ana');
    expect(out).toContain('Objective Research');
    expect(out).toMatch(/Step c\b.*Combine \$a and \$b/);
    expect(out).toMatch(/Step b {2}2 calls · 20 in \/ 10 out/);
    expect(out).toContain('status completed');
  });

  it('show --plain prints the plan with step status, then the events as a tree', async () => {
    const { out } = await cli('show', 'graph', '--store', dir, '--plain');
    expect(out).toContain('status completed');
    expect(out).toContain('plan (graph, version 1)');
    expect(out).toContain('✓ c Combine $a and $b  (after a, b)');
    expect(out).toMatch(/\n\S+ \S+ {7}plan_execute\/execute_replan\/executor\/a tool-calls: lookup/);
    expect(out).toContain('answer: All three steps are done.');
  });

  it('refuses bad command lines with what to type', async () => {
    await expect(cli('bogus', '--store', dir)).rejects.toThrow(/Unknown command "bogus"/);
    await expect(cli('sessions', '--app', 'cli-app')).rejects.toThrow(/needs --store/);
    await expect(cli('sessions', '--store', dir, '--app', 'cli-app', '--usr', 'ana')).rejects.toThrow(/Unknown option --usr/);
    await expect(cli('show', 'nope', '--store', dir)).rejects.toThrow(/No session "nope"/);
    await expect(cli('show', '--store', dir)).rejects.toThrow(CliUsageError);
    await expect(cli('studio', '--store', dir, '--app', fixture('no-runners.mjs'))).rejects.toThrow(/must export createRunners/);
    await expect(cli('studio', '--store', dir, '--port', 'abc')).rejects.toThrow(/whole number/);
  });

  it('studio --app loads a TypeScript module’s runners and serves the store with them', async () => {
    let url = '';
    let stop: () => void = () => undefined;
    const stopped = new Promise<void>((resolve) => {
      stop = resolve;
    });
    const running = runCli(['studio', '--store', dir, '--app', fixture('app-module.ts')], {
      out: (text) => {
        url = /http:\/\/\S+/.exec(text)?.[0] ?? url;
      },
      stopped,
    });
    await expect.poll(() => url, { timeout: 10_000 }).not.toBe('');
    const origin = `http://127.0.0.1:${new URL(url).port}`;
    const info = await rawRequest(`${origin}/api/info`, { headers: { 'x-replan-token': tokenOf(url) } });
    expect(JSON.parse(info.body)).toMatchObject({ readOnly: false, runnerApps: ['cli-app'], storeKind: 'file' });
    const owners = await rawRequest(`${origin}/api/owners`, { headers: { 'x-replan-token': tokenOf(url) } });
    expect(JSON.parse(owners.body)).toMatchObject({ apps: ['cli-app'], users: { 'cli-app': ['ana'] }, discovery: 'directory' });
    stop();
    expect(await running).toBe(0);
  });
});
