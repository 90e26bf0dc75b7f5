import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { succeed } from './commands.js';
import { repoRoot } from './workspace-packages.js';

/**
 * Packs every package under `packages/` (or only the named ones, e.g. `['@replan/core']`) into
 * `destination` (`pnpm pack` runs each package's `prepare` build first and turns `workspace:` ranges
 * into plain ones); resolves with the tarballs' paths.
 */
export async function packTarballs(destination: string, only: readonly string[] = ['./packages/*']): Promise<string[]> {
  const filters = only.flatMap((name) => ['--filter', name]);
  await succeed('pnpm', ['-r', ...filters, 'pack', '--pack-destination', destination], repoRoot);
  return (await readdir(destination))
    .filter((f) => f.endsWith('.tgz'))
    .sort()
    .map((f) => join(destination, f));
}

/** The oldest TypeScript whose users our declarations are checked for (docs/installing.md#typescript-7). */
export const OLDEST_TYPESCRIPT = '~5.9.3';

/** What a consumer installs beside our packages: the versions our own packages are tested with (TypeScript: the oldest we support). */
export type ToolVersions = Record<'zod' | 'typescript' | '@types/node' | '@opentelemetry/api' | 'openai', string>;

/**
 * The ranges of {@link ToolVersions}: {@link OLDEST_TYPESCRIPT}; zod and `@types/node` from core's dev dependencies;
 * otel's peer on `@opentelemetry/api`; the openai `@replan/providers` is developed with (its peer takes 6 or 7; 6 runs on Node 20).
 */
export async function toolVersions(): Promise<ToolVersions> {
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
  const providers = JSON.parse(await readFile(join(repoRoot, 'packages/providers/package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  };
  const openai = providers.devDependencies.openai;
  if (!openai) throw new Error('packages/providers/package.json has no devDependency openai');
  // The workspace builds with TypeScript 7; a consumer type-checks with the oldest TypeScript we support, so
  // the declarations 7 emits are proven usable from 5.9 (the current-majors project checks them with 7).
  return { zod: pick('zod'), typescript: OLDEST_TYPESCRIPT, '@types/node': pick('@types/node'), '@opentelemetry/api': otelApi, openai };
}

/**
 * `npm install`s the tarballs into the project at `dir` (which has a package.json), with the peers and
 * tools of {@link toolVersions} (`others` replace or add ranges, e.g. `typescript: '^7.0.0'`), as a
 * user of npm would. Uses the npm cache first (`--prefer-offline`).
 */
export async function installTarballs(
  dir: string,
  tarballs: readonly string[],
  others: Readonly<Record<string, string>> = {},
): Promise<void> {
  const versions = { ...(await toolVersions()), ...others };
  await succeed(
    'npm',
    [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      ...tarballs,
      ...Object.entries(versions).map(([name, range]) => `${name}@${range}`),
    ],
    dir,
  );
}
