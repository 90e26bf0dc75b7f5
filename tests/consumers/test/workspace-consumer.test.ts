import { existsSync } from 'node:fs';
import { cp, mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { succeed } from '../../../scripts/release/commands.js';
import { freshDir } from '../../../scripts/release/scratch-dir.js';
import { toolVersions } from '../../../scripts/release/tarballs.js';
import { repoRoot } from '../../../scripts/release/workspace-packages.js';
import { checkAndRunApp, packageDirs, writeApp } from './support/consumer-app.js';

// Path (a) of docs/installing.md: another pnpm workspace holding a copy of this repository (a git
// submodule or a plain clone under vendor/replan) and listing its packages in pnpm-workspace.yaml.
describe('another pnpm workspace using the packages as workspace dependencies', () => {
  let root: string;
  let app: string;
  let vendor: string;

  beforeAll(async () => {
    root = await freshDir('workspace');
    app = join(root, 'app');
    vendor = join(root, 'vendor/replan');
    // What a clone holds: the tracked files (and new ones not ignored), never dist/ or node_modules/.
    const listed = await succeed('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], repoRoot);
    for (const file of listed.split('\0').filter(Boolean)) {
      if (!existsSync(join(repoRoot, file))) continue; // deleted in the working tree
      await mkdir(join(vendor, file, '..'), { recursive: true });
      await cp(join(repoRoot, file), join(vendor, file));
    }
    await writeFile(join(root, 'package.json'), '{ "name": "consumer-workspace", "private": true }\n');
    await writeFile(join(root, 'pnpm-workspace.yaml'), 'packages:\n  - app\n  - vendor/replan/packages/*\n');
    const versions = await toolVersions();
    await writeApp(app, {
      dependencies: Object.fromEntries([
        ...packageDirs.map((p) => [`@replan/${p}`, 'workspace:*']),
        ['zod', versions.zod],
        ['@opentelemetry/api', versions['@opentelemetry/api']],
        // A peer of @replan/providers (6 or 7): the app's one copy, 6 on this Node 20.
        ['openai', versions.openai],
      ]),
      devDependencies: { typescript: versions.typescript, '@types/node': versions['@types/node'] },
    });
    // CI=true would make pnpm demand a lockfile this new workspace does not have yet.
    await succeed('pnpm', ['install', '--prefer-offline', '--no-frozen-lockfile'], root);
  });

  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('builds every package during the plain `pnpm install` (its prepare script)', () => {
    for (const dir of packageDirs) expect(existsSync(join(vendor, 'packages', dir, 'dist/index.js')), dir).toBe(true);
  });

  it('type-checks under node16 and bundler resolution and runs a plan–execute agent to completion', async () => {
    // A workspace installs core's dev dependencies, the MCP SDK among them.
    expect(await checkAndRunApp(app)).toEqual({ status: 'completed', output: 'The sum is 5.', mcp: 'sdk installed' });
  });

  it('links one @replan/core for the app and every package that peers on it', async () => {
    const core = await realpath(join(app, 'node_modules/@replan/core'));
    expect(core).toBe(await realpath(join(vendor, 'packages/core')));
    for (const dir of packageDirs.filter((p) => p !== 'core'))
      expect(await realpath(join(vendor, 'packages', dir, 'node_modules/@replan/core')), dir).toBe(core);
  });
});
