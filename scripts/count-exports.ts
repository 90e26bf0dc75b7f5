// `pnpm exec tsx scripts/count-exports.ts [--json] [--list] [--check]`: what each package entry exports,
// measured on the built declarations (`pnpm exec tsc -b` first; scripts/export-counts.ts counts).
// Prints a table, then the totals.
//   --json   one JSON object instead of the table (for scripts and the surface budget)
//   --list   after each entry's row, its error classes by name
//   --check  exit 1 when the surface is over its budget: more than 420 exports in the packages issue 34
//            measured, more than 150 in `@replan/core`'s root, more than 45 exported error classes, or a
//            capability package over its own limit (SURFACE_BUDGET.packages: code 10, memory 30).
//            `--max-total`, `--max-root` and `--max-errors` set other limits.
import { parseArgs } from 'node:util';
import { countExports, overBudget, SURFACE_BUDGET } from './export-counts.js';

const { values } = parseArgs({
  options: {
    json: { type: 'boolean' },
    list: { type: 'boolean' },
    check: { type: 'boolean' },
    'max-total': { type: 'string', default: String(SURFACE_BUDGET.total) },
    'max-root': { type: 'string', default: String(SURFACE_BUDGET.coreRoot) },
    'max-errors': { type: 'string', default: String(SURFACE_BUDGET.errorClasses) },
  },
});

const counts = countExports();
const { entries, total, errorClasses, distinctErrorClasses } = counts;

if (values.json) {
  const brief = entries.map(({ names: _names, ...rest }) => rest);
  console.log(JSON.stringify({ entries: brief, total, errorClasses, distinctErrorClasses }, null, 2));
} else {
  const width = Math.max(...entries.map((c) => c.entry.length), 'entry'.length);
  const row = (a: string, b: string, c: string) => `| ${a.padEnd(width)} | ${b.padStart(7)} | ${c.padStart(13)} |`;
  console.log(row('entry', 'exports', 'error classes'));
  console.log(`|${'-'.repeat(width + 2)}|${'-'.repeat(8)}:|${'-'.repeat(14)}:|`);
  for (const c of entries) {
    console.log(row(c.entry, String(c.exports), String(c.errorClasses.length)));
    if (values.list && c.errorClasses.length > 0) console.log(`|   ${c.errorClasses.join(', ')}`);
  }
  console.log(row('**total**', String(total), String(errorClasses)));
  console.log(
    `\n${entries.length} entries, ${total} exports, ${errorClasses} error classes exported (${distinctErrorClasses} distinct classes).`,
  );
}

if (values.check) {
  const limit = (flag: 'max-total' | 'max-root' | 'max-errors') => {
    const n = Number(values[flag]);
    if (!Number.isInteger(n) || n < 0) throw new Error(`--${flag} takes a whole number, not "${values[flag]}"`);
    return n;
  };
  const over = overBudget(counts, {
    total: limit('max-total'),
    coreRoot: limit('max-root'),
    errorClasses: limit('max-errors'),
    packages: SURFACE_BUDGET.packages,
  });
  for (const line of over) console.error(`over budget: ${line}`);
  if (over.length > 0) {
    console.error('Remove or fold exports; docs/installing.md ("Upgrading from 0.1") lists what replaces each one.');
    process.exitCode = 1;
  } else console.log('within budget.');
}
