import { execFile } from 'node:child_process';

export interface CommandResult {
  readonly code: number;
  readonly output: string;
}

// `pnpm test` (or `pnpm release:check`) runs us with its own npm_* settings (user agent, lifecycle,
// package fields); a consumer's install must not inherit them.
const cleanEnv = (): NodeJS.ProcessEnv => Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_|pnpm_)/i.test(k)));

/** Runs a command (with `env` added); resolves with its exit code and combined output (never rejects on a non-zero exit). */
export function command(
  file: string,
  args: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string>> = {},
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { cwd, env: { ...cleanEnv(), ...env }, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const output = `${stdout}${stderr}`;
      if (error && typeof error.code !== 'number') reject(new Error(`${file} ${args.join(' ')} could not run: ${error.message}`));
      else resolve({ code: typeof error?.code === 'number' ? error.code : 0, output });
    });
  });
}

/** Runs a command that must succeed; its output goes in the error otherwise. */
export async function succeed(file: string, args: readonly string[], cwd: string): Promise<string> {
  const { code, output } = await command(file, args, cwd);
  if (code !== 0) throw new Error(`\`${file} ${args.join(' ')}\` in ${cwd} exited with ${code}:\n${output}`);
  return output;
}
