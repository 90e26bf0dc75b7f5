import { describe, expect, it } from 'vitest';
import { countExports, overBudget, SURFACE_BUDGET } from '../../../scripts/export-counts.js';

// The budget for the public surface (issue 34's, plus a line of its own for each capability package added
// since), measured on the built declarations (`pnpm test` builds first) by the same code as `pnpm exec tsx scripts/count-exports.ts --check`. It reads .d.ts files only.
describe('the public surface', () => {
  const counts = countExports();

  const exportsOf = (pkg: string) =>
    counts.entries.filter((c) => c.entry === pkg || c.entry.startsWith(`${pkg}/`)).reduce((sum, c) => sum + c.exports, 0);
  const own = Object.keys(SURFACE_BUDGET.packages);
  const measured = counts.total - own.reduce((sum, pkg) => sum + exportsOf(pkg), 0);
  const roomy = { total: 10_000, coreRoot: 10_000, errorClasses: 10_000, packages: { '@replan/code': 10_000, '@replan/memory': 10_000 } };

  it('is within its budget: ≤ 420 exports in the packages issue 34 measured, ≤ 150 in the core root, ≤ 45 error classes, code ≤ 10, memory ≤ 30', () => {
    expect(overBudget(counts)).toEqual([]);
    expect(own.map(exportsOf).every((n) => n > 0)).toBe(true);
  });

  it('says which limit it is over, and by how much', () => {
    const problems = overBudget(counts, { ...roomy, total: measured - 1 });
    expect(problems).toEqual([`${measured} exports in all entries, the limit is ${measured - 1}`]);
    const memory = exportsOf('@replan/memory');
    expect(overBudget(counts, { ...roomy, packages: { ...roomy.packages, '@replan/memory': memory - 1 } })).toEqual([
      `${memory} exports in @replan/memory, the limit is ${memory - 1}`,
    ]);
    expect(overBudget(counts, roomy)).toEqual([]);
  });

  it('keeps what only store and agent authors need out of the core root', () => {
    const root = counts.entries.find((c) => c.entry === '@replan/core')?.names ?? [];
    const kits = ['@replan/core/agent-kit', '@replan/core/store-kit'].flatMap(
      (entry) => counts.entries.find((c) => c.entry === entry)?.names ?? [],
    );
    expect(root.filter((name) => kits.includes(name)).filter((name) => name !== 'InvocationContext')).toEqual([]);
  });
});
