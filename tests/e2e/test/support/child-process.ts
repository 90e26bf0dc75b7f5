import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { connectionsClosed, connectionTag } from './child-connections.js';
import type { StoreConfig } from './store-target.js';

const entry = fileURLToPath(new URL('../../child/run-session.mjs', import.meta.url));

// The children import the built packages (pnpm test builds first; alone: pnpm build).
for (const pkg of ['core', 'planexecute', 'postgres'])
  if (!existsSync(fileURLToPath(new URL(`../../../../packages/${pkg}/dist/index.js`, import.meta.url))))
    throw new Error(`tests/e2e runs packages/${pkg}/dist in child processes, and it is not built: run \`pnpm build\` first.`);

/** What `child/run-session.mjs` reads from its argument. */
export interface ChildConfig {
  readonly store: StoreConfig;
  readonly sessionId: string;
  readonly userId?: string;
  readonly scenario: 'steps' | 'approval' | 'graph' | 'nested' | 'review-linear' | 'review-graph' | 'grants-linear' | 'grants-graph';
  readonly mode: 'run' | 'resume' | 'continue';
  readonly values?: Readonly<Record<string, unknown>>;
  /** Freeze at this marker (the parent then kills the process there). */
  readonly killAt?: number;
  /** Wait at marker `at` until `file` exists (a barrier for two processes). */
  readonly hold?: { readonly at: number; readonly file: string };
  readonly workDir: string;
  readonly processLabel: string;
  readonly latencyMs?: number;
}

/** The child's `RESULT` line. */
export interface ChildResult {
  readonly status: string;
  readonly output?: string;
  readonly interrupts?: { id: string; reason: string; toolName?: string; path?: string }[];
  readonly modelCalls?: number;
  readonly error?: { name: string; message: string };
}

export interface ChildOutcome {
  /**
   * Killed with SIGKILL by the parent. On PostgreSQL the outcome comes once the server has no
   * connection of the child left, so what it sent before dying is stored (or dropped) by then.
   */
  readonly killed: boolean;
  /** The marker labels the process printed, in order. */
  readonly markers: string[];
  /** The label of the marker the kill followed. */
  readonly killedAfter?: string;
  readonly result?: ChildResult;
}

export interface KillOptions {
  /**
   * SIGKILL the process when it prints this marker. With `config.killAt` equal to it the process
   * is frozen there (an exact kill point); otherwise it runs on until the signal lands.
   */
  readonly killOn?: number;
  /** Called for every marker line, with its number and label. */
  readonly onMarker?: (n: number, label: string) => void;
}

/**
 * Runs one child process to its end (or kill) and reports what it printed. A killed child's
 * outcome waits for its last PostgreSQL statements to finish in the server (see child-connections.ts).
 */
export async function runChild(config: ChildConfig, options: KillOptions = {}): Promise<ChildOutcome> {
  const store = config.store;
  const tag = store.kind === 'postgres' ? connectionTag(config.processLabel) : undefined;
  const outcome = await runProcess(config, options, tag);
  if (outcome.killed && tag && store.kind === 'postgres') await connectionsClosed(store.connectionString, tag);
  return outcome;
}

function runProcess(config: ChildConfig, options: KillOptions, tag: string | undefined): Promise<ChildOutcome> {
  const killOn = options.killOn ?? config.killAt;
  return new Promise((resolve, reject) => {
    // `pg` in the child names its connections after PGAPPNAME: the tag the harness waits on after a kill.
    const env = tag ? { ...process.env, PGAPPNAME: tag } : process.env;
    const child = spawn(process.execPath, [entry, JSON.stringify(config)], { stdio: ['ignore', 'pipe', 'pipe'], env });
    const markers: string[] = [];
    let killedAfter: string | undefined;
    let result: ChildResult | undefined;
    let stderr = '';
    let pending = '';
    const onLine = (line: string) => {
      const marker = /^M (\d+) (.*)$/.exec(line);
      if (marker) {
        markers.push(marker[2] as string);
        options.onMarker?.(Number(marker[1]), marker[2] as string);
        if (Number(marker[1]) === killOn && !killedAfter) {
          killedAfter = marker[2] as string;
          child.kill('SIGKILL');
        }
      } else if (line.startsWith('RESULT ')) result = JSON.parse(line.slice(7)) as ChildResult;
    };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop() ?? '';
      lines.forEach(onLine);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (pending) onLine(pending);
      if (signal === 'SIGKILL' && killedAfter) return resolve({ killed: true, markers, killedAfter });
      if (code !== 0 || !result)
        return reject(new Error(`child ${config.processLabel} exited with ${signal ?? code} and no result:\n${stderr.slice(-3000)}`));
      resolve({ killed: false, markers, result });
    });
  });
}
