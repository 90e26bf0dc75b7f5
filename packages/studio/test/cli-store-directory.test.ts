import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSessionStore } from '@replan/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/run-cli.js';
import { approvalScenario } from './support/scenarios.js';

let root: string;
let store: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'replan-cli-store-'));
  store = join(root, 'sessions-dir');
  await approvalScenario(new FileSessionStore({ dir: store }), 'cli-app')
    .run({ userId: 'ana', sessionId: 's1', input: 'Send it' })
    .result();
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const cli = (...argv: string[]) => runCli(argv, { out: () => undefined, err: () => undefined, stopped: Promise.resolve() });

describe('replan --store names a directory that is not a store', () => {
  it('a missing directory is an error naming it and the store probably meant (a close name)', async () => {
    for (const command of [['sessions'], ['show', 's1'], ['studio']]) {
      const error = await cli(...command, '--store', join(root, 'sesions-dir')).catch((e: unknown) => e);
      expect(error, command.join(' ')).toMatchObject({ name: 'StudioError', kind: 'usage' });
      expect((error as Error).message).toContain(`there is no directory ${join(root, 'sesions-dir')}`);
      expect((error as Error).message).toContain(`Did you mean --store ${store}`);
    }
  });

  it('a directory holding no store is an error, pointing at the store inside it or around it', async () => {
    const outside = await cli('sessions', '--store', root).catch((e: unknown) => e);
    expect((outside as Error).message).toMatch(/holds no replan session store \(no sessions\/, app-state\/, user-state\/ in it\)/);
    expect((outside as Error).message).toContain(`Did you mean --store ${store}`);
    const inside = await cli('sessions', '--store', join(store, 'sessions')).catch((e: unknown) => e);
    expect((inside as Error).message).toContain(`Did you mean --store ${store}`);
    await mkdir(join(root, 'empty'));
    await writeFile(join(root, 'notes.txt'), 'x');
    await expect(cli('sessions', '--store', join(root, 'empty'))).rejects.toThrow(/holds no replan session store/);
    await expect(cli('sessions', '--store', join(root, 'notes.txt'))).rejects.toThrow(/is a file/);
  });

  it('still opens a real store', async () => {
    expect(await cli('sessions', '--store', store)).toBe(0);
  });
});

describe('replan show on a session waiting for a tool approval', () => {
  it('says what waits, its interrupt id and how to answer it', async () => {
    const lines: string[] = [];
    const code = await runCli(['show', 's1', '--store', store], { out: (t) => lines.push(t), stopped: Promise.resolve() });
    expect(code).toBe(0);
    const text = lines.join('\n');
    expect(text).toMatch(/├─ Waiting for approval \w+/);
    expect(text).toMatch(/answer \S+:approval: runner\.resume\(\{ userId, sessionId, approvals: \{ "\S+:approval": true \} \}\)/);
    expect(text).toMatch(/waiting on \S+:approval/);
  });
});
