/**
 * Stdio MCP servers still running. If the app exits without `close()`, they are killed on the way
 * out, so no server outlives the process that started it.
 */
const children = new Set<number>();
let hooked = false;

function killAll(): void {
  for (const pid of children) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  children.clear();
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
