import { describe, expect, it } from 'vitest';
import { workspacePackages } from '../../../scripts/release/workspace-packages.js';
import { fencedBlock, firstColumn, packageNamesIn, readRepoFile, section } from './support/markdown.js';

// The one list of packages is packages/*/package.json; every place that names them must name exactly those.
const packages = workspacePackages();
const names = packages.map((p) => p.name).sort();
const entryPoints = packages.flatMap((p) => p.entryPoints).sort();
const countWords = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

describe('the package list', () => {
  it('is what README.md lists in its package table', () => {
    expect(firstColumn(section(readRepoFile('README.md'), 'Packages')).sort()).toEqual(names);
  });

  it('is what docs/installing.md lists in its package table', () => {
    expect(firstColumn(section(readRepoFile('docs/installing.md'), 'The packages')).sort()).toEqual(names);
  });

  it('is what the diagram of docs/architecture.md draws', () => {
    expect(packageNamesIn(fencedBlock(readRepoFile('docs/architecture.md'), 'mermaid'))).toEqual(names);
  });

  it('is the fixed group of .changeset/config.json (one version for all)', () => {
    const config = JSON.parse(readRepoFile('.changeset/config.json')) as { fixed: string[][] };
    expect(config.fixed.map((group) => [...group].sort())).toEqual([
      names.filter((n) => !packages.find((p) => p.name === n)?.manifest.private),
    ]);
  });

  it('is what the consumers app imports (it uses every package)', () => {
    expect(packageNamesIn(readRepoFile('tests/consumers/app/src/main.ts'))).toEqual(names);
  });

  it('gives every entry point a source for the tests (vitest.workspace.ts aliases, tsconfig.tests.json paths)', () => {
    const aliases = [...readRepoFile('vitest.workspace.ts').matchAll(/^\s*'(@replan\/[^']+)': '\.\/packages\//gm)].map((m) => m[1]);
    expect(aliases.sort()).toEqual(entryPoints);
    const tsconfig = JSON.parse(readRepoFile('tsconfig.tests.json')) as { compilerOptions: { paths: Record<string, string[]> } };
    expect(Object.keys(tsconfig.compilerOptions.paths).sort()).toEqual(entryPoints);
  });

  it('is counted right wherever the docs count it', () => {
    const files = ['README.md', 'docs/installing.md', 'docs/architecture.md'];
    const counts = files.flatMap((file) =>
      [...readRepoFile(file).matchAll(/\b(\w+) packages\b/gi)]
        .map((m) => m[1]!.toLowerCase())
        .filter((word) => countWords.includes(word) || /^\d+$/.test(word))
        .map((word) => `${file}: ${word}`),
    );
    const expected = countWords[names.length] ?? String(names.length);
    expect(counts.filter((c) => !c.endsWith(`: ${expected}`) && !c.endsWith(`: ${names.length}`))).toEqual([]);
  });
});

describe('every entry point of every package', () => {
  it('has types and a default condition (so require() works on Node >= 20.19) and no import-only condition', () => {
    const conditions = packages.flatMap((p) =>
      Object.entries(p.manifest.exports ?? {}).map(([subpath, target]) => `${p.name} ${subpath}: ${Object.keys(target).join(', ')}`),
    );
    expect(conditions.filter((c) => !c.endsWith(': types, default'))).toEqual([]);
  });
});
