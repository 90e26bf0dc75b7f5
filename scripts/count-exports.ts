// `pnpm exec tsx scripts/count-exports.ts [--json] [--list]`: what each package entry exports, measured
// on the built declarations (`pnpm exec tsc -b` first). For every entry of every package's `exports`
// map it reads the `types` file with the TypeScript compiler and counts its exported names (a value
// and a type of the same name, as a class is, count once) and, among them, the error classes
// (classes whose chain of base classes reaches the global `Error`). Prints a table, then the totals.
//   --json   one JSON object instead of the table (for scripts and the surface budget)
//   --list   after each entry's row, its error classes by name
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
// The compiler's JavaScript API: TypeScript 7 (the workspace's tsc) has none yet, so the 5.9 line is kept for it.
import ts from 'typescript-5';
import { repoRoot, workspacePackages } from './release/workspace-packages.js';

/** One entry point's count. */
interface EntryCount {
  /** The import specifier, e.g. `@replan/core/testing`. */
  readonly entry: string;
  readonly exports: number;
  /** Exported classes extending `Error` (directly or through other classes), by name. */
  readonly errorClasses: readonly string[];
}

const { values } = parseArgs({ options: { json: { type: 'boolean' }, list: { type: 'boolean' } } });

const entries = workspacePackages().flatMap((pkg) =>
  Object.entries(pkg.manifest.exports ?? {}).map(([subpath, conditions]) => {
    const types = conditions.types;
    if (types === undefined) throw new Error(`${pkg.name}: exports["${subpath}"] has no "types" condition`);
    const file = join(repoRoot, 'packages', pkg.dir, types);
    if (!existsSync(file)) throw new Error(`${file} is missing: build first (pnpm exec tsc -b)`);
    return { entry: subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`, file };
  }),
);

// One program over every entry: the packages' declarations import each other, and the checker
// follows re-exports across them to the class that declares each name.
const program = ts.createProgram(
  entries.map((e) => e.file),
  {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts'],
    types: ['node'],
    noEmit: true,
    skipLibCheck: true,
  },
);
const checker = program.getTypeChecker();

const counts: EntryCount[] = entries.map(({ entry, file }) => {
  const source = program.getSourceFile(file);
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`${entry}: TypeScript found no module in ${file}`);
  const exported = checker.getExportsOfModule(module);
  const errorClasses = exported
    .filter((symbol) => isErrorClass(resolved(symbol)))
    .map((symbol) => symbol.name)
    .sort();
  return { entry, exports: exported.length, errorClasses };
});

const total = counts.reduce((sum, c) => sum + c.exports, 0);
const totalErrors = counts.reduce((sum, c) => sum + c.errorClasses.length, 0);
// A class exported from two entries is one class to learn, but two names in the surface: both are shown.
const distinctErrors = new Set(counts.flatMap((c) => c.errorClasses.map((name) => `${packageOf(c.entry)}:${name}`))).size;

if (values.json) {
  console.log(JSON.stringify({ entries: counts, total, errorClasses: totalErrors, distinctErrorClasses: distinctErrors }, null, 2));
} else {
  const width = Math.max(...counts.map((c) => c.entry.length), 'entry'.length);
  const row = (a: string, b: string, c: string) => `| ${a.padEnd(width)} | ${b.padStart(7)} | ${c.padStart(13)} |`;
  console.log(row('entry', 'exports', 'error classes'));
  console.log(`|${'-'.repeat(width + 2)}|${'-'.repeat(8)}:|${'-'.repeat(14)}:|`);
  for (const c of counts) {
    console.log(row(c.entry, String(c.exports), String(c.errorClasses.length)));
    if (values.list && c.errorClasses.length > 0) console.log(`|   ${c.errorClasses.join(', ')}`);
  }
  console.log(row('**total**', String(total), String(totalErrors)));
  console.log(`\n${counts.length} entries, ${total} exports, ${totalErrors} error classes exported (${distinctErrors} distinct classes).`);
}

/** The symbol an export names, through `export { x } from` and `import`/`export` aliases. */
function resolved(symbol: ts.Symbol): ts.Symbol {
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

/** A class whose base classes reach the global `Error` (declared in TypeScript's lib files). */
function isErrorClass(symbol: ts.Symbol): boolean {
  if (!(symbol.flags & ts.SymbolFlags.Class)) return false;
  const seen = new Set<ts.Type>();
  const reachesError = (type: ts.Type): boolean => {
    if (seen.has(type)) return false;
    seen.add(type);
    const bases = type.isClassOrInterface() ? (checker.getBaseTypes(type) ?? []) : [];
    return bases.some((base) => isGlobalError(base) || reachesError(base));
  };
  return reachesError(checker.getDeclaredTypeOfSymbol(symbol));
}

function isGlobalError(type: ts.Type): boolean {
  const symbol = type.getSymbol();
  return (
    symbol?.name === 'Error' &&
    (symbol.declarations ?? []).some(
      (d) => program.isSourceFileDefaultLibrary(d.getSourceFile()) || /lib\.[\w.]+\.d\.ts$/.test(d.getSourceFile().fileName),
    )
  );
}

function packageOf(entry: string): string {
  return entry.split('/').slice(0, 2).join('/');
}
