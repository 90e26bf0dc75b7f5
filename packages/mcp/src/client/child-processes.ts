import { readFileSync } from 'node:fs';

/**
 * Stdio MCP servers still running. If the app exits without `close()`, they are killed on the way
 * out, so no server outlives the process that started it: SIGTERM first, then SIGKILL for any still
 * running after `EXIT_GRACE_MS` (a server that ignores SIGTERM, or is stuck in its handler).
 */
const children = new Set<number>();
let hooked = false;

/** How long the exit hook waits, blocking, for servers to end on SIGTERM before it SIGKILLs them. */
export const EXIT_GRACE_MS = 500;
const POLL_MS = 10;

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

/**
 * Whether the process still runs. The children are not reaped while the exit hook blocks, so one
 * that ended is a zombie: on Linux /proc tells it apart; elsewhere it counts as running (the hook
 * then waits the whole grace, and a SIGKILL to a zombie is harmless: its pid is not yet reused).
 */
function running(pid: number): boolean {
  if (process.platform === 'linux') {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      return state !== 'Z' && state !== 'X';
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A 'exit' handler can only block: it sleeps on an Atomics wait, the one synchronous sleep Node has. */
const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function killAll(): void {
  let left = [...children];
  children.clear();
  for (const pid of left) signal(pid, 'SIGTERM');
  const deadline = Date.now() + EXIT_GRACE_MS;
  for (left = left.filter(running); left.length > 0 && Date.now() < deadline; left = left.filter(running)) sleepSync(POLL_MS);
  for (const pid of left) signal(pid, 'SIGKILL');
}

export function rememberChild(pid: number): void {
  children.add(pid);
  if (!hooked) {
    hooked = true;
    process.once('exit', killAll);
  }
}

export function forgetChild(pid: number): void {
  children.delete(pid);
}
