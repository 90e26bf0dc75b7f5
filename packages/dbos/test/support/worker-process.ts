import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../child/dbos-worker.mjs', import.meta.url));

/** What `child/dbos-worker.mjs` reads from its argument. */
export interface WorkerConfig {
  readonly connectionString: string;
  readonly systemDatabaseUrl: string;
  readonly schema: string;
  readonly workDir: string;
  readonly label: string;
  readonly leaseMs: number;
  readonly latencyMs: number;
  /** Added to each graph tool call's time (default 0); app `slow`: its tool's time (default 2 s). */
  readonly toolMs?: number;
  /** How long creating a session waits (default 0), after an `<id>:create` line in effects.log. */
  readonly createDelayMs?: number;
  readonly concurrency: number;
  readonly app: 'e2e' | 'approve' | 'slow';
  readonly variant?: string;
}

/** A worker process; `exited` resolves when it is gone, however it ended. */
export interface WorkerProcess {
  readonly label: string;
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
  /** Resolves once the worker printed READY (DBOS launched, heartbeat written). */
  readonly ready: Promise<void>;
}

/** Starts one DBOS worker process (on the built packages). */
export function startWorker(config: WorkerConfig): WorkerProcess {
  const child = spawn(process.execPath, [entry, JSON.stringify(config)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stderr })),
  );
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('READY\n')) resolve();
    });
    void exited.then(({ code, signal }) =>
      reject(new Error(`worker ${config.label} exited (${signal ?? code}) before READY:\n${stderr.slice(-2000)}`)),
    );
  });
  ready.catch(() => undefined);
  return { label: config.label, child, exited, ready };
}
