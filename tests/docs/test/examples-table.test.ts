import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../../scripts/release/workspace-packages.js';
import { firstColumn, readRepoFile, section } from './support/markdown.js';

describe("README.md's examples table", () => {
  it('lists every folder of examples/, and nothing else', () => {
    const folders = readdirSync(join(repoRoot, 'examples'), { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name !== 'node_modules')
      .map((e) => e.name)
      .sort();
    expect(firstColumn(section(readRepoFile('README.md'), 'Examples')).sort()).toEqual(folders);
  });
});
