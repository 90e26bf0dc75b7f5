import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { StoreConfig } from './store-target.js';

const entry = fileURLToPath(new URL('../../child/lease-session.mjs', import.meta.url));

/** What `child/lease-session.mjs` reads from its argument. */
export interface LeaseChildConfig {
  readonly store: StoreConfig;
  readonly sessionId: string;
  readonly mode: 'run' | 'resume';
  readonly label: string;
  readonly leaseMs: number;
  readonly goFile?: string;
  readonly fakeHeartbeat?: boolean;
}

/** The child's `RESULT` line. */
export interface LeaseChildResult {
  readonly status: string;
  readonly output?: string;
  readonly error?: { name: string; message: string; lost?: boolean; owner?: string; expiresAt?: number };
}

/** A running lease child: its markers so far, a wait for a marker, and its end. */
export interface LeaseChild {
  readonly process: ChildProcess;
  readonly markers: string[];
  /** Resolves once a marker starting with `prefix` was printed. */
  marker(prefix: string): Promise<void>;
  /** The child's result once it exited (rejects if it died without one). */
  readonly done: Promise<{ markers: string[]; result: LeaseChildResult }>;
}

const live = new Set<ChildProcess>();

/** Kills every lease child still running (afterEach): SIGCONT first, so a stopped one can die. */
export function killLeaseChildren(): void {
  for (const child of live) {
    child.kill('SIGCONT');
    child.kill('SIGKILL');
  }
  live.clear();
}

export function startLeaseChild(config: LeaseChildConfig): LeaseChild {
  const child = spawn(process.execPath, [entry, JSON.stringify(config)], { stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  const markers: string[] = [];
  const waiting: { prefix: string; resolve: () => void }[] = [];
  let result: LeaseChildResult | undefined;
  let stderr = '';
  let pending = '';
  const onLine = (line: string) => {
    if (line.startsWith('M ')) {
      const label = line.slice(2);
      markers.push(label);
      for (const w of waiting.splice(0))
        if (label.startsWith(w.prefix)) w.resolve();
        else waiting.push(w);
    } else if (line.startsWith('RESULT ')) result = JSON.parse(line.slice(7)) as LeaseChildResult;
  };
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    lines.forEach(onLine);
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<{ markers: string[]; result: LeaseChildResult }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      live.delete(child);
      if (pending) onLine(pending);
      if (code !== 0 || !result)
        return reject(new Error(`lease child ${config.label} exited with ${signal ?? code} and no result:\n${stderr.slice(-3000)}`));
      resolve({ markers, result });
    });
  });
  done.catch(() => undefined); // reported to whoever awaits it
  return {
    process: child,
    markers,
    marker: (prefix) =>
      markers.some((m) => m.startsWith(prefix))
        ? Promise.resolve()
        : Promise.race([
            new Promise<void>((resolve) => waiting.push({ prefix, resolve })),
            done.then(() => {
              throw new Error(`lease child ${config.label} ended without marker "${prefix}": ${markers.join(' | ')}`);
            }),
          ]),
    done,
  };
}
