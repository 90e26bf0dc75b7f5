import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A running throwaway PostgreSQL cluster. */
export interface TestPostgres {
  /** `postgresql://postgres@127.0.0.1:<port>/postgres`, trust auth. */
  readonly connectionString: string;
  readonly port: number;
  /** Stops the server (immediate shutdown) and removes its data directory. */
  stop(): Promise<void>;
  /** Kills the server like a crash (`pg_ctl stop -m immediate`), keeping its data for `restart()`. */
  crash(): Promise<void>;
  /** Starts a crashed server again on the same port and data (crash recovery replays its WAL). */
  restart(): Promise<void>;
}

/** How the throwaway cluster trades durability for speed. */
export interface TestPostgresOptions {
  /**
   * `fsync` on: every commit reaches the disk (a real server's setting). Off (default): commits
   * reach the OS only; tests kill processes, never the machine.
   */
  readonly fsync?: boolean;
  /**
   * `synchronous_commit` (default off, or on with `fsync`). On, a commit is acknowledged only once
   * its WAL is written, so a crash of the server (`crash()`) loses no acknowledged commit; off, the
   * last commits before a server crash may be lost.
   */
  readonly synchronousCommit?: boolean;
}

/**
 * The directory holding `initdb` and `pg_ctl`: `REPLAN_PG_BIN` when set, else PATH, else
 * Debian's /usr/lib/postgresql/<n>/bin.
 */
export function findPostgresBin(): string | undefined {
  const forced = process.env.REPLAN_PG_BIN;
  if (forced) return existsSync(join(forced, 'initdb')) ? forced : undefined;
  for (const dir of (process.env.PATH ?? '').split(delimiter))
    if (dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a fresh PostgreSQL cluster in a temporary directory, listening on a free port of
 * 127.0.0.1 only. PostgreSQL refuses to run as root, so as root it runs as the `postgres` user.
 * Durability settings are off by default (fsync, synchronous commit): the tests kill clients,
 * never the machine; see `TestPostgresOptions`.
 */
export async function startTestPostgres(settings: TestPostgresOptions = {}): Promise<TestPostgres> {
  const fsync = settings.fsync ?? false;
  const synchronousCommit = settings.synchronousCommit ?? fsync;
  const bin = findPostgresBin();
  if (!bin)
    throw new Error(
      'initdb/pg_ctl not found (REPLAN_PG_BIN, PATH, /usr/lib/postgresql/*/bin); install PostgreSQL (e.g. apt-get install postgresql) or set REPLAN_PG_BIN.',
    );
  const base = await mkdtemp(join(tmpdir(), 'replan-pg-'));
  const data = join(base, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const ids = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]).catch(() => {
      throw new Error('Running as root, but there is no "postgres" user to run PostgreSQL as; create one (useradd postgres).');
    });
    await chown(base, Number(ids[0].stdout.trim()), Number(ids[1].stdout.trim()));
  }
  // cwd = base: the postgres user may not be allowed into the caller's working directory.
  const pgRun = (tool: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args], { cwd: base }) : run(join(bin, tool), args, { cwd: base });
  const pgCtlArgs = (...args: string[]) =>
    (asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, 'pg_ctl'), ...args]] : [join(bin, 'pg_ctl'), args]) as [string, string[]];

  try {
    await pgRun('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions']);
    let lastError: unknown;
    for (let attempt = 0; attempt < 3; attempt++) {
      const port = await freePort();
      const options = `-p ${port} -k ${base} -c listen_addresses=127.0.0.1 -c fsync=${fsync ? 'on' : 'off'} -c synchronous_commit=${synchronousCommit ? 'on' : 'off'} -c full_page_writes=${fsync ? 'on' : 'off'} -c max_connections=200`;
      const start = () => pgRun('pg_ctl', ['-D', data, '-l', join(base, 'server.log'), '-w', '-t', '60', '-o', options, 'start']);
      try {
        await start();
      } catch (error) {
        lastError = error; // most likely someone took the port meanwhile: try another
        continue;
      }
      const [cmd, args] = pgCtlArgs('-D', data, '-m', 'immediate', '-w', 'stop');
      // If the test process dies without teardown, do not leave a server behind.
      const onExit = () => {
        spawnSync(cmd, args, { cwd: base, stdio: 'ignore' });
        spawnSync('rm', ['-rf', base], { stdio: 'ignore' });
      };
      process.once('exit', onExit);
      let stopped = false;
      return {
        connectionString: `postgresql://postgres@127.0.0.1:${port}/postgres`,
        port,
        async stop() {
          if (stopped) return;
          stopped = true;
          process.removeListener('exit', onExit);
          await run(cmd, args, { cwd: base }).catch(() => undefined);
          await rm(base, { recursive: true, force: true });
        },
        async crash() {
          await run(cmd, args, { cwd: base });
        },
        async restart() {
          await start();
        },
      };
    }
    const log = await readFile(join(base, 'server.log'), 'utf8').catch(() => '');
    throw new Error(`PostgreSQL did not start: ${(lastError as Error).message}\n${log.slice(-2000)}`);
  } catch (error) {
    await rm(base, { recursive: true, force: true });
    throw error;
  }
}
