import { describe, expect, it } from 'vitest';
import { workspacePackages } from '../../../scripts/release/workspace-packages.js';
import { readRepoFile, section } from './support/markdown.js';

// Every entry point has a `default` exports condition, so CommonJS can require() the packages on
// Node >= 20.19 (the consumers suite proves it on Node 20, 22 and 24): the docs must not say otherwise.
const userDocs = ['README.md', 'docs/installing.md', ...workspacePackages().map((p) => `packages/${p.dir}/README.md`)];

describe('what the docs say of CommonJS', () => {
  it('never calls the packages "ESM only"', () => {
    expect(userDocs.filter((file) => /ESM only/i.test(readRepoFile(file)))).toEqual([]);
  });

  it('says in installing.md that require() works from Node 20.19 and types need nodenext', () => {
    const commonJs = section(readRepoFile('docs/installing.md'), 'CommonJS');
    expect(commonJs).toContain('Node ≥ 20.19');
    expect(commonJs).toContain('"module": "nodenext"');
  });

  it('says in installing.md, first, that the packages are not on the npm registry yet', () => {
    const intro = readRepoFile('docs/installing.md').split('\n## ')[0]!;
    expect(intro).toContain('not on the npm registry yet');
  });
});
