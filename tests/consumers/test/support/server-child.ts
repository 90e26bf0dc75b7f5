import { type ChildProcess, spawn } from 'node:child_process';

/** A long-running child process (a server) and the JSON line it printed once it was listening. */
export interface ServerChild<T> {
  readonly ready: T;
  /** SIGTERM, then waits for the exit (SIGKILL after 5 s). */
  stop(): Promise<void>;
}

/**
 * Starts `file args` in `cwd` and resolves once it prints a line that parses as a JSON object (what it
 * serves, e.g. its URL); rejects with its output if it exits before that or takes longer than `timeoutMs`.
 */
export function startServerChild<T>(
  file: string,
  args: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string>>,
  timeoutMs = 60_000,
): Promise<ServerChild<T>> {
  const child: ChildProcess = spawn(file, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`\`${file} ${args.join(' ')}\` printed no JSON line in ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.stdout?.on('data', (chunk) => {
      output += chunk;
      const line = output.split('\n').find((l) => l.startsWith('{') && l.endsWith('}'));
      if (!line) return;
      clearTimeout(timer);
      resolve({ ready: JSON.parse(line) as T, stop });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`\`${file} ${args.join(' ')}\` exited with ${code} before it was ready:\n${output}`));
    });
  });
}
