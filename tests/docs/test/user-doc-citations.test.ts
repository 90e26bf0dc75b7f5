import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, workspacePackages } from '../../../scripts/release/workspace-packages.js';
import { readRepoFile } from './support/markdown.js';

// A reader of the docs has neither the design document nor the issue tracker: a doc says the thing itself.
const userDocs = [
  'README.md',
  ...readdirSync(join(repoRoot, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  ...workspacePackages().map((p) => `packages/${p.dir}/README.md`),
];
const citation = /design §|§ ?\d|\b(table )?rows? \d+\b|\bissues?[ -]#?\d+\b/gi;

describe('the user docs', () => {
  it('cite no design section, issue number or table row number', () => {
    const found = userDocs.flatMap((file) =>
      readRepoFile(file)
        .split('\n')
        .flatMap((line, i) => [...line.matchAll(citation)].map((m) => `${file}:${i + 1}: ${m[0]}`)),
    );
    expect(found).toEqual([]);
  });
});
