// Runs a compensation process (compensation-process.ts, or another with its protocol) twice: killed (SIGKILL) during the last compensation, then resumed in
// a new process. Shared by the file-store and the PostgreSQL crash tests.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const defaultScript = fileURLToPath(new URL('./compensation-process.ts', import.meta.url));
const tsconfig = fileURLToPath(new URL('../../../../tsconfig.tests.json', import.meta.url));

interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly out: string;
  readonly err: string;
}

function start(
  script: string,
  args: readonly string[],
  children: ChildProcess[],
): { child: ChildProcess; firstLine: Promise<string>; exit: Promise<Exit> } {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TSX_TSCONFIG_PATH: tsconfig },
  });
  children.push(child);
  let out = '';
  let err = '';
  let onLine: (line: string) => void = () => undefined;
  const firstLine = new Promise<string>((resolve) => (onLine = resolve));
  child.stdout?.on('data', (d) => {
    out += d;
    if (out.includes('\n')) onLine(out.slice(0, out.indexOf('\n')));
  });
  child.stderr?.on('data', (d) => (err += d));
  const exit = new Promise<Exit>((resolve) =>
    child.on('exit', (code, signal) => {
      onLine(out);
      resolve({ code, signal, out, err });
    }),
  );
  return { child, firstLine, exit };
}

/**
 * `store` is `['file', dir, '-']` or `['pg', connectionString, schema]`; `script` a process with
 * compensation-process.ts's arguments and protocol (default: that one). Returns the notes of both
 * processes (bookings and cancellations that took effect), split at the kill, and the resumed result.
 */
export async function crashDuringCompensation(
  store: readonly [string, string, string],
  notes: string,
  sessionId: string,
  children: ChildProcess[],
  script: string = defaultScript,
): Promise<{ readonly beforeKill: string[]; readonly all: string[]; readonly resumed: Record<string, unknown>; readonly killed: Exit }> {
  const read = async () => (await readFile(notes, 'utf8').catch(() => '')).trim().split('\n').filter(Boolean);
  const first = start(script, [...store, notes, 'run', sessionId], children);
  if ((await first.firstLine) !== 'stopped') throw new Error(`The first process ended before it stopped: ${(await first.exit).err}`);
  first.child.kill('SIGKILL'); // a crash, the flight's compensation in flight
  const killed = await first.exit;
  const beforeKill = await read();
  const second = start(script, [...store, notes, 'resume', sessionId], children);
  const done = await second.exit;
  if (done.code !== 0) throw new Error(`The resuming process failed (${done.code}): ${done.err}`);
  return { beforeKill, all: await read(), resumed: JSON.parse(done.out) as Record<string, unknown>, killed };
}
