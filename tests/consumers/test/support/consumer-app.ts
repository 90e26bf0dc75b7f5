// The consumer application fixture (app/). Running commands, packing and installing tarballs are shared
// with `pnpm release:check`: they are in scripts/release/.
import { cp, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { succeed } from '../../../../scripts/release/commands.js';
import { workspacePackages } from '../../../../scripts/release/workspace-packages.js';

const appFixture = fileURLToPath(new URL('../../app/', import.meta.url));

/** Our packages, by folder under packages/ (read from there: a new package is covered without a change here). */
export const packageDirs: readonly string[] = workspacePackages().map((p) => p.dir);

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
 * Type-checks the installed application under `moduleResolution: node16` (emitting it, and checking every
 * declaration file too: `skipLibCheck` off) and `bundler` (strict with `exactOptionalPropertyTypes`), then runs
 * it with node. The node16 check leaves `exactOptionalPropertyTypes` off because the `ai` peer's own
 * declarations fail under it; ours are emitted from sources compiled with it.
 */
export async function checkAndRunApp(dir: string): Promise<AppOutcome> {
  const tsc = join(dir, 'node_modules/typescript/bin/tsc');
  await succeed(process.execPath, [tsc, '-p', 'tsconfig.node16.json'], dir);
  await succeed(process.execPath, [tsc, '-p', 'tsconfig.bundler.json'], dir);
  const printed = await succeed(process.execPath, ['out/main.js'], dir);
  return JSON.parse(printed.trim().split('\n').at(-1) ?? '') as AppOutcome;
}

/** Every file under `dir`, relative to it. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
}
