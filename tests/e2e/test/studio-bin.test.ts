import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileSessionStore } from '@replan/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// The `replan` bin as installed: the built package (dist), its page assets, a child process.
const root = fileURLToPath(new URL('../../../', import.meta.url));
const bin = join(root, 'packages/studio/dist/cli/main.js');

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'replan-bin-'));
  const store = new FileSessionStore({ dir });
  await store.create({ appName: 'shop', userId: 'ana', id: 's1' }, [
    {
      id: 'e0',
      invocationId: 'i',
      author: 'user',
      path: 'user',
      timestamp: 1,
      message: { role: 'user', content: [{ type: 'text', text: 'hello bin' }] },
    },
  ]);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the replan bin (built package)', () => {
  it('show and sessions print the store’s sessions', () => {
    const show = spawnSync(process.execPath, [bin, 'show', 's1', '--store', dir], { encoding: 'utf8' });
    expect(show.status, show.stderr).toBe(0);
    expect(show.stdout).toContain('session s1 · app shop · user ana');
    expect(show.stdout).toContain('hello bin');
    const list = spawnSync(process.execPath, [bin, 'sessions', '--store', dir, '--app', 'shop', '--user', 'ana'], { encoding: 'utf8' });
    expect(list.stdout).toMatch(/s1\s+running/);
    const bad = spawnSync(process.execPath, [bin, 'show', 's1'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('needs --store');
    // The package's bin file (what node_modules/.bin/replan runs): the usage, exit 0.
    const help = spawnSync(process.execPath, [join(root, 'packages/studio/bin/replan.js'), '--help'], { encoding: 'utf8' });
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain('replan sessions --store');
    const across = spawnSync(process.execPath, [bin, 'sessions', '--store', dir], { encoding: 'utf8' });
    expect(across.stdout).toMatch(/shop\s+ana\s+s1\s+running/);
  });

  it('studio serves the page from the package and stops on SIGINT', async () => {
    const child = spawn(process.execPath, [bin, 'studio', '--store', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await expect.poll(() => /http:\/\/\S+/.test(out), { timeout: 20_000 }).toBe(true);
    const url = new URL(/http:\/\/\S+/.exec(out)![0]);
    expect(out).toContain('(read-only)');
    const page = await fetch(`${url.origin}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect((await fetch(`${url.origin}/app/main.js`)).status).toBe(200);
    expect((await fetch(`${url.origin}/studio.css`)).status).toBe(200);
    const info = await fetch(`${url.origin}/api/info`, { headers: { 'x-replan-token': url.searchParams.get('token') ?? '' } });
    expect(await info.json()).toMatchObject({ readOnly: true, storeKind: 'file' });
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });
});
