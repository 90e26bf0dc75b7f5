import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PostgresSessionStore } from '@replan/postgres';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { useTestPostgres } from '../../postgres/test/support/use-test-postgres.js';
import { researchRunner } from './support/agents.js';

// `replan eval --from-session` against a PostgreSQL store, as a production session is pulled: the
// replan bin (built) opens the postgres:// URL with @replan/postgres. A throwaway cluster; under
// CI=true it must start.
const bin = fileURLToPath(new URL('../../studio/dist/cli/main.js', import.meta.url));
const pg = useTestPostgres();

function replan(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
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
  dir = await mkdtemp(join(tmpdir(), 'replan-eval-pg-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('replan eval --from-session on PostgreSQL', () => {
  pg.it('writes the case and the recording of a stored session; a missing one exits 2', async () => {
    const store = new PostgresSessionStore({ connectionString: pg.connectionString });
    try {
      await store.migrate();
      const runner = researchRunner({ store, cities: () => ['Oslo'] });
      await runner.run({ userId: 'ana', sessionId: 'incident-9', input: 'What about Oslo?' }).result();
    } finally {
      await store.close();
    }
    const out = join(dir, 'cases');
    const owner = ['--app', 'eval-test', '--user', 'ana'];
    const ok = await replan(['eval', '--from-session', 'incident-9', '--store', pg.connectionString, ...owner, '--out', out]);
    expect({ code: ok.code, stderr: ok.stderr }).toEqual({ code: 0, stderr: '' });
    const written = JSON.parse(await readFile(join(out, 'session-incident-9.case.json'), 'utf8'));
    expect(written.case.expect).toEqual({
      trajectory: { mode: 'exact', calls: [{ name: 'lookup', args: { city: 'Oslo', units: 'metric' } }] },
      answer: 'Answer to What about Oslo?',
      status: 'completed',
    });
    const recording = JSON.parse(await readFile(join(out, 'session-incident-9.recording.json'), 'utf8'));
    expect(recording.events[0].message.content[0].text).toBe('What about Oslo?');

    const missing = await replan(['eval', '--from-session', 'nope', '--store', pg.connectionString, ...owner, '--out', out]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('No session "nope" in the PostgreSQL store (app "eval-test") (user "ana").');
    // Without --app/--user PostgreSQL cannot be searched: the message says what to give.
    const anonymous = await replan(['eval', '--from-session', 'incident-9', '--store', pg.connectionString, '--out', out]);
    expect(anonymous.code).toBe(2);
    expect(anonymous.stderr).toContain('Give --app <name> and --user <id>: this store cannot list its apps and users.');
  });
});
