// What each package entry exports, measured on the built declarations (`pnpm exec tsc -b` first): for
// every entry of every package's `exports` map it reads the `types` file with the TypeScript compiler
// and counts its exported names (a value and a type of the same name, as a class is, count once) and,
// among them, the error classes (classes whose chain of base classes reaches the global `Error`).
// `scripts/count-exports.ts` prints it; tests/docs checks the budget with it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
// The compiler's JavaScript API: TypeScript 7 (the workspace's tsc) has none yet, so the 5.9 line is kept for it.
import ts from 'typescript-5';
import { repoRoot, workspacePackages } from './release/workspace-packages.js';

/** One entry point's count. */
export interface EntryCount {
  /** The import specifier, e.g. `@replan/core/testing`. */
  readonly entry: string;
  readonly exports: number;
  /** Every exported name, sorted. */
  readonly names: readonly string[];
  /** Exported classes extending `Error` (directly or through other classes), by name. */
  readonly errorClasses: readonly string[];
}

export interface ExportCounts {
  readonly entries: readonly EntryCount[];
  readonly total: number;
  /** Error class names over all entries (one exported from two entries counts twice). */
  readonly errorClasses: number;
  /** Distinct error classes (package and name). */
  readonly distinctErrorClasses: number;
}

/**
 * The surface budget. `total` is issue 34's limit for the packages that existed then; a capability
 * package added since (code steps, memory) is opt-in and has its own limit in `packages`, over all of
 * its entries, so it neither hides behind the core's savings nor eats them. Error classes are counted
 * over every package.
 */
export interface SurfaceBudget {
  readonly total: number;
  readonly coreRoot: number;
  readonly errorClasses: number;
  /** Packages with a limit of their own (all their entries together), left out of `total`. */
  readonly packages: Readonly<Record<string, number>>;
}

export const SURFACE_BUDGET: SurfaceBudget = {
  total: 420,
  coreRoot: 150,
  errorClasses: 45,
  packages: { '@replan/code': 10, '@replan/memory': 30 },
};

export function countExports(): ExportCounts {
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

  /** The symbol an export names, through `export { x } from` and `import`/`export` aliases. */
  const resolved = (symbol: ts.Symbol): ts.Symbol => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);

  const isGlobalError = (type: ts.Type): boolean => {
    const symbol = type.getSymbol();
    return (
      symbol?.name === 'Error' &&
      (symbol.declarations ?? []).some(
        (d) => program.isSourceFileDefaultLibrary(d.getSourceFile()) || /lib\.[\w.]+\.d\.ts$/.test(d.getSourceFile().fileName),
      )
    );
  };

  /** A class whose base classes reach the global `Error` (declared in TypeScript's lib files). */
  const isErrorClass = (symbol: ts.Symbol): boolean => {
    if (!(symbol.flags & ts.SymbolFlags.Class)) return false;
    const seen = new Set<ts.Type>();
    const reachesError = (type: ts.Type): boolean => {
      if (seen.has(type)) return false;
      seen.add(type);
      const bases = type.isClassOrInterface() ? (checker.getBaseTypes(type) ?? []) : [];
      return bases.some((base) => isGlobalError(base) || reachesError(base));
    };
    return reachesError(checker.getDeclaredTypeOfSymbol(symbol));
  };

  const counts: EntryCount[] = entries.map(({ entry, file }) => {
    const source = program.getSourceFile(file);
    const module = source && checker.getSymbolAtLocation(source);
    if (!module) throw new Error(`${entry}: TypeScript found no module in ${file}`);
    const exported = checker.getExportsOfModule(module);
    const errorClasses = exported
      .filter((symbol) => isErrorClass(resolved(symbol)))
      .map((symbol) => symbol.name)
      .sort();
    return { entry, exports: exported.length, names: exported.map((s) => s.name).sort(), errorClasses };
  });

  const packageOf = (entry: string) => entry.split('/').slice(0, 2).join('/');
  return {
    entries: counts,
    total: counts.reduce((sum, c) => sum + c.exports, 0),
    errorClasses: counts.reduce((sum, c) => sum + c.errorClasses.length, 0),
    // A class exported from two entries is one class to learn, but two names in the surface: both are shown.
    distinctErrorClasses: new Set(counts.flatMap((c) => c.errorClasses.map((name) => `${packageOf(c.entry)}:${name}`))).size,
  };
}

/** One line per limit the counts are over (none when the surface is within its budget). */
export function overBudget(counts: ExportCounts, budget: SurfaceBudget = SURFACE_BUDGET): string[] {
  const packageOf = (entry: string) => entry.split('/').slice(0, 2).join('/');
  const exportsOf = (pkg: string) => counts.entries.filter((c) => packageOf(c.entry) === pkg).reduce((sum, c) => sum + c.exports, 0);
  const own = Object.keys(budget.packages);
  const root = counts.entries.find((c) => c.entry === '@replan/core')?.exports ?? 0;
  const over = (what: string, count: number, limit: number) => (count > limit ? [`${count} ${what}, the limit is ${limit}`] : []);
  return [
    ...over('exports in all entries', counts.total - own.reduce((sum, pkg) => sum + exportsOf(pkg), 0), budget.total),
    ...over("exports in @replan/core's root", root, budget.coreRoot),
    ...over('exported error classes', counts.distinctErrorClasses, budget.errorClasses),
    ...own.flatMap((pkg) => over(`exports in ${pkg}`, exportsOf(pkg), budget.packages[pkg] ?? 0)),
  ];
}
