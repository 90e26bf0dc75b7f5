import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The replan repository (the consumers live outside it, in a temp directory). */
export const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const appFixture = fileURLToPath(new URL('../../app/', import.meta.url));

/** Our packages, by folder under packages/. */
export const packageDirs = ['core', 'planexecute', 'providers', 'postgres', 'otel', 'studio', 'eval'] as const;

export interface CommandResult {
  readonly code: number;
  readonly output: string;
}

// `pnpm test` runs us with its own npm_* settings (user agent, lifecycle, package fields); a consumer's
// install must not inherit them.
const cleanEnv = (): NodeJS.ProcessEnv => Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_|pnpm_)/i.test(k)));

/** Runs a command; resolves with its exit code and combined output (never rejects on a non-zero exit). */
export function command(file: string, args: readonly string[], cwd: string): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { cwd, env: cleanEnv(), maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
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

/** A fresh directory outside the repository. */
export const freshDir = (label: string) => mkdtemp(join(tmpdir(), `replan-consumer-${label}-`));

/** The versions a consumer installs beside our packages: the ranges our own packages are built with. */
export async function toolVersions(): Promise<Record<'zod' | 'typescript' | '@types/node' | '@opentelemetry/api', string>> {
  const core = JSON.parse(await readFile(join(repoRoot, 'packages/core/package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  };
  const pick = (name: string) => {
    const range = core.devDependencies[name];
    if (!range) throw new Error(`packages/core/package.json has no devDependency ${name}`);
    return range;
  };
  const otel = JSON.parse(await readFile(join(repoRoot, 'packages/otel/package.json'), 'utf8')) as {
    peerDependencies: Record<string, string>;
  };
  const otelApi = otel.peerDependencies['@opentelemetry/api'];
  if (!otelApi) throw new Error('packages/otel/package.json has no peerDependency @opentelemetry/api');
  return { zod: pick('zod'), typescript: pick('typescript'), '@types/node': pick('@types/node'), '@opentelemetry/api': otelApi };
}

/** Writes the consumer application (sources and both tsconfigs) into `dir`, with this package.json. */
export async function writeApp(dir: string, packageJson: Record<string, unknown>): Promise<void> {
  await mkdir(dir, { recursive: true });
  await cp(appFixture, dir, { recursive: true });
  await writeFile(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'consumer-app', private: true, type: 'module', ...packageJson }, null, 2)}\n`,
  );
}

/** What the application printed (its run's status and output). */
export interface AppOutcome {
  readonly status: string;
  readonly output: string;
  /** What `mcpTools` said: `sdk not installed` (the optional peer is absent) or `sdk installed`. */
  readonly mcp: string;
}

/**
 * Type-checks the installed application under `moduleResolution: node16` (emitting it, and checking our
 * declaration files too: `skipLibCheck` off) and `bundler`, both strict with `exactOptionalPropertyTypes`,
 * then runs it with node.
 */
export async function checkAndRunApp(dir: string): Promise<AppOutcome> {
  const tsc = join(dir, 'node_modules/typescript/bin/tsc');
  await succeed(process.execPath, [tsc, '-p', 'tsconfig.node16.json'], dir);
  await succeed(process.execPath, [tsc, '-p', 'tsconfig.bundler.json'], dir);
  const printed = await succeed(process.execPath, ['out/main.js'], dir);
  return JSON.parse(printed.trim().split('\n').at(-1) ?? '') as AppOutcome;
}

/** Type-checks the CommonJS file of the application (expected to fail: the packages are ESM only). */
export function checkCommonJs(dir: string): Promise<CommandResult> {
  return command(process.execPath, [join(dir, 'node_modules/typescript/bin/tsc'), '-p', 'cjs/tsconfig.json'], dir);
}

/** Every file under `dir`, relative to it. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
}
