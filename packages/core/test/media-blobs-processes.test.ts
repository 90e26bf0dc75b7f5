import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FileSessionStore, ReActAgent, Runner, imageFromBytes, tool } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { contractImageBytes } from '../src/testing/contract/blob-cases.js';

const resumer = fileURLToPath(new URL('./support/media-resume.ts', import.meta.url));
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function resumeElsewhere(dir: string, sessionId: string, interruptId: string): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', resumer, dir, sessionId, interruptId], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, err })));
}

describe('a 2 MB image in a FileSessionStore, across processes', () => {
  it('keeps the log small, round-trips the bytes, re-sends them from another process on resume, and deletes them with the session', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'replan-media-procs-'));
    dirs.push(dir);
    const store = new FileSessionStore({ dir });
    const bytes = contractImageBytes(2 * 1024 * 1024, 11);
    const look = tool({
      name: 'look',
      description: 'looks closer',
      parameters: z.object({}),
      needsApproval: true,
      execute: () => 'looked',
    });
    const model = new ScriptedModel({ responses: [callTools({ name: 'look', args: {} })] });
    const runner = new Runner({ agent: new ReActAgent({ name: 'reader', model, tools: [look] }), appName: 'media', sessionStore: store });
    const run = await runner
      .run({ userId: 'u', sessionId: 'inv', input: [{ type: 'text', text: 'total?' }, imageFromBytes(bytes)] })
      .result();
    expect(run.status).toBe('interrupted');

    const userDir = join(dir, 'sessions', 'media', 'u');
    expect((await stat(join(userDir, 'inv.jsonl'))).size).toBeLessThan(8_000);
    expect(sha256(await readFile(join(userDir, 'inv.blobs', sha256(bytes))))).toBe(sha256(bytes));
    expect(sha256(await store.readBlob({ appName: 'media', userId: 'u', id: 'inv' }, sha256(bytes)))).toBe(sha256(bytes));

    const child = await resumeElsewhere(dir, 'inv', run.interrupts[0]!.id);
    expect(child.code, child.err).toBe(0);
    expect(JSON.parse(child.out)).toEqual({ status: 'completed', images: [sha256(bytes)] });

    await store.delete({ appName: 'media', userId: 'u', id: 'inv' });
    expect((await readdir(userDir)).filter((name) => !name.endsWith('.lease'))).toEqual([]);
  });
});
