import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileSessionStore } from '@replan/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/run-cli.js';
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

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const lines: string[] = [];
  const errors: string[] = [];
  const code = await runCli(argv, { out: (t) => lines.push(t), err: (t) => errors.push(t), stopped: Promise.resolve() });
  return { code, out: lines.join('\n'), err: errors.join('\n') };
}

/** Serves `replan studio` with these arguments until the returned `stop` is called. */
async function studioServing(argv: string[]): Promise<{ origin: string; token: string; err: string[]; stop: () => Promise<number> }> {
  let url = '';
  let stop: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const err: string[] = [];
  const running = runCli(['studio', ...argv], {
    out: (text) => {
      url = /http:\/\/\S+/.exec(text)?.[0] ?? url;
    },
    err: (text) => err.push(text),
    stopped,
  });
  await expect.poll(() => url, { timeout: 10_000 }).not.toBe('');
  return {
    origin: `http://127.0.0.1:${new URL(url).port}`,
    token: tokenOf(url),
    err,
    stop: () => {
      stop();
      return running;
    },
  };
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

  it('show counts events in the singular for one', async () => {
    const store = new FileSessionStore({ dir });
    await store.create({ appName: 'cli-app', userId: 'ana', id: 'one' }, [
      {
        id: 'e1',
        invocationId: 'i1',
        author: 'user',
        path: 'user',
        timestamp: 1,
        message: { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      },
    ]);
    const plain = await cli('show', 'one', '--store', dir, '--plain');
    expect(plain.out).toContain('· 1 event ·');
    const rendered = await cli('show', 'one', '--store', dir);
    expect(rendered.out).toMatch(/· 1 event\n/);
    expect((await cli('show', 'graph', '--store', dir, '--plain')).out).toMatch(/· \d+ events ·/);
  });

  it('refuses bad command lines with what to type', async () => {
    await expect(cli('bogus', '--store', dir)).rejects.toThrow(/Unknown command "bogus"/);
    await expect(cli('sessions', '--app', 'cli-app')).rejects.toThrow(/needs --store/);
    await expect(cli('sessions', '--store', dir, '--app', 'cli-app', '--usr', 'ana')).rejects.toThrow(/Unknown option --usr/);
    await expect(cli('show', 'nope', '--store', dir)).rejects.toThrow(/No session "nope"/);
    await expect(cli('show', '--store', dir)).rejects.toMatchObject({ name: 'StudioError', kind: 'usage' });
    await expect(cli('studio', '--store', dir, '--runners', fixture('no-runners.mjs'))).rejects.toThrow(/must export createRunners/);
    await expect(cli('studio', '--store', dir, '--port', 'abc')).rejects.toThrow(/whole number/);
  });

  it('studio --runners loads a TypeScript module’s runners and serves the store with them', async () => {
    const studio = await studioServing(['--store', dir, '--runners', fixture('app-module.ts')]);
    const headers = { 'x-replan-token': studio.token };
    const info = await rawRequest(`${studio.origin}/api/info`, { headers });
    expect(JSON.parse(info.body)).toMatchObject({ readOnly: false, runnerApps: ['cli-app'], storeKind: 'file' });
    const owners = await rawRequest(`${studio.origin}/api/owners`, { headers });
    expect(JSON.parse(owners.body)).toMatchObject({ apps: ['cli-app'], users: { 'cli-app': ['ana'] }, discovery: 'directory' });
    expect(studio.err).toEqual([]);
    expect(await studio.stop()).toBe(0);
  });

  it('studio --app <module>, the older spelling, still loads the runners and says to use --runners on stderr', async () => {
    const studio = await studioServing(['--store', dir, '--app', fixture('app-module.ts')]);
    const info = await rawRequest(`${studio.origin}/api/info`, { headers: { 'x-replan-token': studio.token } });
    expect(JSON.parse(info.body)).toMatchObject({ readOnly: false, runnerApps: ['cli-app'] });
    expect(studio.err.join('\n')).toMatch(/--app <module> is deprecated; use --runners .*app-module\.ts/);
    expect(await studio.stop()).toBe(0);
  });

  it('studio --app <name> names an app to offer, as --app-name does', async () => {
    const studio = await studioServing(['--store', dir, '--app', 'other-app', '--app-name', 'third-app']);
    const owners = await rawRequest(`${studio.origin}/api/owners`, { headers: { 'x-replan-token': studio.token } });
    expect(JSON.parse(owners.body).apps).toEqual(['cli-app', 'other-app', 'third-app']);
    const info = await rawRequest(`${studio.origin}/api/info`, { headers: { 'x-replan-token': studio.token } });
    expect(JSON.parse(info.body)).toMatchObject({ readOnly: true });
    expect(studio.err).toEqual([]);
    expect(await studio.stop()).toBe(0);
  });

  it.each([['--help'], ['-h'], ['help'], []])('replan %s prints the usage of every command and exits 0', async (...argv) => {
    const { code, out } = await cli(...argv.filter((a): a is string => a !== undefined));
    expect(code).toBe(0);
    for (const command of ['replan studio ', 'replan sessions ', 'replan show ', 'replan eval ']) expect(out).toContain(command);
    expect(out).toContain('--runners <module>');
  });

  it('replan <command> --help and -h print the usage without opening a store', async () => {
    for (const argv of [
      ['sessions', '--help'],
      ['show', '-h'],
      ['studio', '-h'],
    ]) {
      const { code, out } = await cli(...argv);
      expect(code).toBe(0);
      expect(out).toContain('replan sessions ');
    }
  });

  it('sessions without --app and --user lists every app’s and user’s sessions of a file store', async () => {
    const store = new FileSessionStore({ dir });
    await approvalScenario(store, 'other-app').run({ userId: 'bo', sessionId: 'elsewhere', input: 'Send it' }).result();
    const { code, out } = await cli('sessions', '--store', dir);
    expect(code).toBe(0);
    expect(out.split('\n')[0]).toMatch(/^APP\s+USER\s+SESSION\s+STATUS/);
    expect(out).toMatch(/cli-app\s+ana\s+waiting\s+interrupted/);
    expect(out).toMatch(/cli-app\s+ana\s+graph\s+completed/);
    expect(out).toMatch(/other-app\s+bo\s+elsewhere\s+interrupted/);
    // One of the two narrows the list.
    const ana = await cli('sessions', '--store', dir, '--user', 'ana');
    expect(ana.out).toContain('graph');
    expect(ana.out).not.toContain('elsewhere');
    const other = await cli('sessions', '--store', dir, '--app', 'other-app');
    expect(other.out).toContain('elsewhere');
    expect(other.out).not.toContain('graph');
    await expect(cli('sessions', '--store', dir, '--app', 'nobody')).rejects.toThrow(/No sessions in app "nobody"/);
    await expect(cli('sessions', '--store', dir, '--cursor', 'x')).rejects.toThrow(/give --app <name> and --user <id>/);
  });

  it('sessions across owners pages each user’s list and prints how to see more', async () => {
    const { out } = await cli('sessions', '--store', dir, '--limit', '1');
    expect(out.match(/cli-app\s+ana\s+/g)).toHaveLength(1);
    expect(out).toMatch(/more \(1 per user shown\):\n {2}--app cli-app --user ana --cursor \S+/);
  });
});
