import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkEntryPointProject,
  nodeFromRegistry,
  thisNode,
  writeEntryPointProject,
} from '../../../scripts/release/entry-point-project.js';
import { entryPointProblems } from '../../../scripts/release/entry-point-problems.js';
import { freshDir } from '../../../scripts/release/scratch-dir.js';
import { installTarballs, packTarballs } from '../../../scripts/release/tarballs.js';
import { workspacePackages } from '../../../scripts/release/workspace-packages.js';
import { checkAndRunApp, filesUnder, packageDirs, writeApp } from './support/consumer-app.js';

// Path (b) of docs/installing.md: `pnpm pack` tarballs installed with npm into a fresh project.
describe('a fresh npm project installing the packed tarballs', () => {
  let root: string;
  let app: string;
  let tarballs: string;

  beforeAll(async () => {
    root = await freshDir('npm');
    tarballs = join(root, 'tarballs');
    app = join(root, 'app');
    const packed = await packTarballs(tarballs);
    await writeApp(app, {});
    await installTarballs(app, packed);
  });

  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('type-checks under node16 and bundler resolution and runs a plan–execute agent to completion', async () => {
    // The app does not install the optional MCP peer: core loads and runs without it, and mcpTools says what to install.
    expect(await checkAndRunApp(app)).toEqual({ status: 'completed', output: 'The sum is 5.', mcp: 'sdk not installed' });
  });

  it('installs one copy of @replan/core, shared by every package through its peer dependency', async () => {
    const copies = (await filesUnder(join(app, 'node_modules'))).filter((f) => f.endsWith('@replan/core/package.json'));
    expect(copies).toEqual(['@replan/core/package.json']);
  });

  it('ships README, LICENSE, CHANGELOG, built entry points and sources, zod and core as peers, and no build scripts', async () => {
    for (const dir of packageDirs) {
      const installed = join(app, 'node_modules/@replan', dir);
      const files = await filesUnder(installed);
      expect(files, dir).toEqual(
        expect.arrayContaining(['README.md', 'LICENSE', 'CHANGELOG.md', 'dist/index.js', 'dist/index.d.ts', 'src/index.ts']),
      );
      expect(
        files.filter((f) => f.endsWith('.tsbuildinfo')),
        dir,
      ).toEqual([]);
      const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8')) as Record<
        string,
        Record<string, string> | undefined
      >;
      expect(Object.keys(manifest.dependencies ?? {}), dir).not.toContain('zod');
      expect(Object.keys(manifest.dependencies ?? {}), dir).not.toContain('@replan/core');
      expect(manifest.scripts?.prepare, dir).toBeUndefined();
      if (dir !== 'core') expect(manifest.peerDependencies?.['@replan/core'], dir).toMatch(/^[\^~>=\d]/); // a semver range, no workspace: left
    }
    // The studio's page ships in its package: nothing is built or fetched at the user's end.
    const studio = await filesUnder(join(app, 'node_modules/@replan/studio'));
    expect(studio).toEqual(expect.arrayContaining(['static/index.html', 'static/studio.css', 'dist/web/main.js', 'dist/cli/main.js']));
    expect(existsSync(join(app, 'node_modules/.bin/replan'))).toBe(true);
    const usesZod = ['core', 'planexecute', 'providers'];
    for (const dir of usesZod) {
      const manifest = JSON.parse(await readFile(join(app, 'node_modules/@replan', dir, 'package.json'), 'utf8')) as {
        peerDependencies?: Record<string, string>;
      };
      expect(manifest.peerDependencies?.zod, dir).toBeDefined();
    }
  });

  it('has source and declaration maps that point only at shipped files', async () => {
    const dangling: string[] = [];
    for (const dir of packageDirs) {
      const installed = join(app, 'node_modules/@replan', dir);
      for (const map of (await filesUnder(installed)).filter((f) => f.endsWith('.map'))) {
        const { sources } = JSON.parse(await readFile(join(installed, map), 'utf8')) as { sources: string[] };
        for (const source of sources) if (!existsSync(join(installed, dirname(map), source))) dangling.push(`${dir}/${map} → ${source}`);
      }
    }
    expect(dangling).toEqual([]);
  });

  it('loads every package and subpath with require() from a CommonJS project (nodenext), on Node 20, 22 and 24', async () => {
    // `npm init` writes "type": "commonjs"; require(esm) loads our ES modules on Node >= 20.19 (no top-level await).
    const entryPoints = workspacePackages().flatMap((p) => p.entryPoints);
    const project = join(app, 'commonjs');
    await writeEntryPointProject(project, entryPoints);
    const nodes = [thisNode, nodeFromRegistry(22), nodeFromRegistry(24)];
    const outcomes = await checkEntryPointProject(project, join(app, 'node_modules/typescript/bin/tsc'), nodes);
    expect(outcomes.map((o) => o.node.split('.')[0])).toEqual([process.version.split('.')[0], 'v22', 'v24']);
    expect(Object.keys(outcomes[0]!.required)).toEqual(entryPoints);
    expect(entryPointProblems(outcomes, entryPoints)).toEqual([]);
  });
});
