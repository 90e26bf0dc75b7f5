import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/**
 * A process test file's scratch: temporary folders (`dir(prefix)`) and the child processes it
 * started (push them on `children`). After each test, children still running are killed and the
 * folders removed, so a failed assertion leaves no process or folder behind.
 */
export function processScratch(): { readonly children: ChildProcess[]; dir(prefix: string): Promise<string> } {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
  });
  return {
    children,
    async dir(prefix) {
      const dir = await mkdtemp(join(tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    },
  };
}
