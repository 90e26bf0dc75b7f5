import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(`${packageDir}/package.json`, 'utf8')) as { bin: Record<string, string>; files: string[] };

// pnpm links a workspace package's bins into its dependants at install time, before anything is
// built: a bin under dist/ made `pnpm install` warn "Failed to create bin" in a fresh clone.
describe('the replan bin as a workspace links it', () => {
  it('is a file in the sources (not under dist), executable, and published', () => {
    const target = manifest.bin.replan as string;
    expect(target).not.toMatch(/dist\//);
    const path = fileURLToPath(new URL(target, `file://${packageDir}/`));
    expect(statSync(path).mode & 0o111).not.toBe(0);
    expect(readFileSync(path, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(manifest.files).toContain(target.replace(/^\.\//, '').split('/')[0]);
  });
});
