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

/** What a consumer installs beside our packages: the versions our own packages are built and tested with. */
export type ToolVersions = Record<'zod' | 'typescript' | '@types/node' | '@opentelemetry/api' | 'openai', string>;

/**
 * The ranges of {@link ToolVersions}, read from core's dev dependencies, otel's peer on `@opentelemetry/api`
 * and the openai that `@replan/providers` is developed with (its peer takes 6 or 7; 6 is the one for Node 20).
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
  return { zod: pick('zod'), typescript: pick('typescript'), '@types/node': pick('@types/node'), '@opentelemetry/api': otelApi, openai };
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
