import { readFileSync, readlinkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';

/**
 * The process that holds a lease or a lock, as another process can check it: which machine
 * (host name and, on Linux, boot id), which pid namespace (containers), which pid, and when that
 * process started. Stores record it with a lease so a holder that died on this machine can be
 * taken over at once instead of waiting for its lease to expire.
 */
export interface HolderProcess {
  /** `os.hostname()`. */
  readonly host: string;
  /** Linux `/proc/sys/kernel/random/boot_id`: the start times below count from this boot. */
  readonly boot?: string | undefined;
  /** Linux `/proc/self/ns/pid` (e.g. `pid:[4026531836]`): pids mean something only inside their namespace. */
  readonly pidNamespace?: string | undefined;
  readonly pid: number;
  /** The process's start time (Linux `/proc/<pid>/stat` field 22), so a reused pid is not taken for the holder. */
  readonly start?: string | undefined;
}

/**
 * What this process can tell about a recorded holder: `'alive'` (it still runs), `'gone'` (it
 * exited, or its pid now runs another process) or `'unknown'` (another machine, another boot or
 * another pid namespace: only the lease's expiry can tell).
 */
export type HolderState = 'alive' | 'gone' | 'unknown';

const readOr = (read: () => string): string | undefined => {
  try {
    return read();
  } catch {
    return undefined; // not Linux, or /proc is not mounted
  }
};

/** The start time in a `/proc/<pid>/stat` line: the command name (field 2) may hold spaces and ')', so fields count after the last ')'. */
function startTimeFromStat(text: string): string | undefined {
  return text.slice(text.lastIndexOf(')') + 2).split(' ')[19];
}

async function startTimeOf(pid: number): Promise<string | undefined> {
  try {
    return startTimeFromStat(await readFile(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Read once: none of these change while the process runs. */
let self: HolderProcess | undefined;

/** This process as a `HolderProcess` (read once per process). */
export function thisProcess(): HolderProcess {
  if (self) return self;
  const boot = readOr(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim());
  const pidNamespace = readOr(() => readlinkSync('/proc/self/ns/pid'));
  const start = readOr(() => startTimeFromStat(readFileSync('/proc/self/stat', 'utf8')) ?? '');
  self = {
    host: hostname(),
    ...(boot ? { boot } : {}),
    ...(pidNamespace ? { pidNamespace } : {}),
    pid: process.pid,
    ...(start ? { start } : {}),
  };
  return self;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

/**
 * Whether `holder` still runs, as far as this process can tell. Only a holder on this machine
 * (same host name, same boot), in this pid namespace, can be judged: it is gone when its pid is
 * not running, or runs a process that started at another time (the pid was reused). A record
 * without a start time is judged by its pid alone. Anything else is `'unknown'`: wait for expiry.
 */
export async function holderState(holder: HolderProcess): Promise<HolderState> {
  const me = thisProcess();
  if (holder.host !== me.host || holder.boot !== me.boot || holder.pidNamespace !== me.pidNamespace) return 'unknown';
  if (!Number.isSafeInteger(holder.pid) || holder.pid <= 0) return 'unknown';
  if (holder.pid === me.pid) return holder.start === me.start ? 'alive' : 'gone';
  if (!processAlive(holder.pid)) return 'gone';
  if (holder.start === undefined) return 'alive';
  const now = await startTimeOf(holder.pid);
  return now !== undefined && now !== holder.start ? 'gone' : 'alive';
}

/** Whether `holder` is known to be gone (`holderState` is `'gone'`): then its lease or lock can be taken at once. */
export async function isHolderGone(holder: HolderProcess): Promise<boolean> {
  return (await holderState(holder)) === 'gone';
}
