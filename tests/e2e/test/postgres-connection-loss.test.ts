import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import { PostgresSessionStore } from '@replan/postgres';
import { useTestPostgres } from '../../../packages/postgres/test/support/use-test-postgres.js';
import './support/child-process.js'; // fails early when the packages are not built
import { readAttempts, readEffects } from './support/session-view.js';
import { APP } from './support/store-target.js';

// Synchronous commit on: a commit PostgreSQL acknowledged survives its crash, as on a real server.
const db = useTestPostgres({ synchronousCommit: true });
const entry = fileURLToPath(new URL('../child/connection-loss.mjs', import.meta.url));

interface Result {
  readonly status: string;
  readonly output?: string;
  readonly error?: { name: string; message: string; kind?: string };
}

/** What the child printed so far, and a way to wait for its n-th RESULT. */
function watchChild(config: object, onMarker: (label: string) => void) {
  const child = spawn(process.execPath, [entry, JSON.stringify(config)], { stdio: ['pipe', 'pipe', 'pipe'] });
  const acknowledged: string[] = [];
  const results: Result[] = [];
  const waiting: ((r: Result) => void)[] = [];
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  createInterface({ input: child.stdout }).on('line', (line) => {
    const marker = /^M \d+ (.*)$/.exec(line);
    if (marker) onMarker(marker[1] as string);
    else if (line.startsWith('ACK ')) acknowledged.push(...(JSON.parse(line.slice(4)) as string[]));
    else if (line.startsWith('RESULT ')) {
      const result = JSON.parse(line.slice(7)) as Result;
      results.push(result);
      waiting.shift()?.(result);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    acknowledged,
    exited,
    stderr: () => stderr,
    nextResult: () =>
      new Promise<Result>((resolve, reject) => {
        waiting.push(resolve);
        void exited.then((code) => reject(new Error(`child exited (${code}) before its RESULT:\n${stderr.slice(-3000)}`)));
      }),
  };
}

const OUTPUT = 'record alpha -> ok:alpha | record beta and gamma -> ok:beta; ok:gamma | summarise -> ok:summary; ok:audit';

describe('PostgreSQL server crash mid-run, in a child process', () => {
  db.it(
    'the process lives, the run ends failed with a connection SessionStoreError; after a restart the same store resumes it, nothing acknowledged lost',
    async () => {
      const workDir = await mkdtemp(join(tmpdir(), 'replan-e2e-loss-'));
      const schema = db.freshSchema('loss');
      const sessionId = 'loss';
      let toolResults = 0;
      let crashed: Promise<void> | undefined;
      const storedBeforeCrash: string[] = [];
      const watched = watchChild({ connectionString: db.connectionString, schema, sessionId, workDir, latencyMs: 200 }, (label) => {
        const stored = /^store:append:after .*:tool-result (\S+)$/.exec(label);
        if (!stored || crashed) return;
        storedBeforeCrash.push(...(stored[1] as string).split(','));
        // The second stored tool result: the run is in its second step, with most of it ahead.
        if (++toolResults === 2) crashed = db.crash();
      });
      try {
        const first = await watched.nextResult();
        expect(crashed).toBeDefined();
        await crashed;
        expect(watched.child.exitCode).toBeNull();
        expect(watched.child.signalCode).toBeNull();
        expect(first).toMatchObject({ status: 'failed', error: { name: 'SessionStoreError', kind: 'connection' } });
        expect(first.error?.message).toMatch(/lost or could not open its connection/);
        expect(first.error?.message).toMatch(/runner\.resume/);
        const acknowledgedBeforeRestart = [...watched.acknowledged];

        await db.restart();
        watched.child.stdin.write('resume\n');
        const resumed = await watched.nextResult();
        expect(resumed).toEqual({ status: 'completed', output: OUTPUT });
        expect(await watched.exited).toBe(0);

        const reader = new PostgresSessionStore({ connectionString: db.connectionString, schema });
        const session = await reader.get({ appName: APP, userId: 'u1', id: sessionId });
        await reader.close();
        const stored = new Set(session?.events.map((e) => e.id));
        expect(acknowledgedBeforeRestart.length).toBeGreaterThan(3);
        expect(watched.acknowledged.filter((id) => !stored.has(id))).toEqual([]);
        // Tool calls whose results were stored before the crash ran once; every effect was made once.
        const attempts = (await readAttempts(workDir)).filter((a) => a.kind === 'tool');
        expect(storedBeforeCrash.length).toBeGreaterThanOrEqual(2);
        for (const callId of storedBeforeCrash) expect(attempts.filter((a) => a.callId === callId)).toHaveLength(1);
        expect(await readEffects(workDir, sessionId)).toEqual(['s1t1c1', 's2t1c1', 's2t1c2', 's3t1c1', 's3t2c1']);
      } finally {
        if (watched.child.exitCode === null) watched.child.kill('SIGKILL');
        await crashed?.catch(() => undefined);
        await rm(workDir, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
