import { describe, expect, it } from 'vitest';
import { countExports, overBudget } from '../../../scripts/export-counts.js';

// Issue 34's budget for the public surface, measured on the built declarations (`pnpm test` builds
// first) by the same code as `pnpm exec tsx scripts/count-exports.ts --check`. It reads .d.ts files only.
describe('the public surface', () => {
  const counts = countExports();

  it('is within its budget: ≤ 420 exports in all, ≤ 150 in the core root, ≤ 45 error classes', () => {
    expect(overBudget(counts)).toEqual([]);
  });

  it('says which limit it is over, and by how much', () => {
    const problems = overBudget(counts, { total: counts.total - 1, coreRoot: 10_000, errorClasses: 10_000 });
    expect(problems).toEqual([`${counts.total} exports in all entries, the limit is ${counts.total - 1}`]);
    expect(overBudget(counts, { total: 10_000, coreRoot: 10_000, errorClasses: 10_000 })).toEqual([]);
  });

  it('keeps what only store and agent authors need out of the core root', () => {
    const root = counts.entries.find((c) => c.entry === '@replan/core')?.names ?? [];
    const kits = ['@replan/core/agent-kit', '@replan/core/store-kit'].flatMap(
      (entry) => counts.entries.find((c) => c.entry === entry)?.names ?? [],
    );
    expect(root.filter((name) => kits.includes(name)).filter((name) => name !== 'InvocationContext')).toEqual([]);
  });
});
