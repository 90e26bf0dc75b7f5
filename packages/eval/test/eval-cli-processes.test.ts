import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileSessionStore } from '@replan/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The `replan` bin as a user runs it: @replan/studio's built CLI, which loads @replan/eval (`pnpm test` builds first).
const bin = fileURLToPath(new URL('../../studio/dist/cli/main.js', import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

function replan(
  args: string[],
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, bin, ...args], {
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'replan-eval-bin-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('replan eval (the bin)', () => {
  it('exits 0 when all pass; the sessions are in the store the eval file uses, for the studio to open', async () => {
    const store = join(dir, 'store');
    const { code, stdout } = await replan(['eval', fixture('passing.eval.ts')], { REPLAN_EVAL_STORE: store });
    expect(code).toBe(0);
    expect(stdout).toContain('PASS 2/2 cases passed');
    const sessionId = /^✓ lyon .* session (\S+)$/m.exec(stdout)?.[1] as string;
    expect(await new FileSessionStore({ dir: store }).get({ appName: 'eval-test', userId: 'eval', id: sessionId })).toBeDefined();
  });

  it('exits 1 when a case fails, with the JUnit report written', async () => {
    const junit = join(dir, 'junit.xml');
    const { code, stdout } = await replan(['eval', fixture('mixed.eval.ts'), '--junit', junit]);
    expect(code).toBe(1);
    expect(stdout).toContain('FAIL 1/3 cases passed');
    expect(await readFile(junit, 'utf8')).toMatch(/<testsuite name="mixed &lt;&amp;&gt;" tests="3" failures="1" errors="1"/);
  });

  it('exits 2 on a bad command line or eval set, with the message on stderr', async () => {
    const unknown = await replan(['eval', fixture('passing.eval.ts'), '--junt', 'x']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown option --junt');
    const bad = await replan(['eval', fixture('bad-set.eval.mjs')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('case "empty".expect: expects nothing');
    expect(bad.stdout).toBe('');
  });

  it('without @replan/eval installed, says what to install (exit 2)', async () => {
    const { code, stderr } = await replan(['eval', fixture('passing.eval.ts')], {}, ['--import', fixture('without-eval-package.mjs')]);
    expect(code).toBe(2);
    expect(stderr).toContain('replan eval needs the @replan/eval package: pnpm add -D @replan/eval');
  });

  it('--from-session finds the session in a file store without --app/--user and writes the case files', async () => {
    const store = join(dir, 'prod-store');
    const { researchRunner } = await import('./support/agents.js');
    await researchRunner({ store: new FileSessionStore({ dir: store }) })
      .run({ userId: 'ana', sessionId: 'incident-7', input: 'Lyon?' })
      .result();
    const out = join(dir, 'cases');
    const { code, stdout, stderr } = await replan(['eval', '--from-session', 'incident-7', '--store', store, '--out', out]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toContain('session-incident-7.case.json');
    expect((await readdir(out)).sort()).toEqual(['session-incident-7.case.json', 'session-incident-7.recording.json']);
  });
});
