import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript-5';

/** A package's files (paths relative to its `src`) and the files of it each one imports. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/**
 * Parses every `.ts` file under `srcDir` with the TypeScript compiler and lists the relative
 * imports each makes: `import` and `export … from` (type-only ones included: a type import is still
 * an arrow between files), `import('…')` calls and `import('…')` types. Imports of other packages
 * are left out: the graph is of one package's own files.
 */
export function importGraph(srcDir: string): ImportGraph {
  const root = resolve(srcDir);
  const graph = new Map<string, string[]>();
  for (const file of tsFiles(root)) {
    const text = readFileSync(file, 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const targets: string[] = [];
    const add = (specifier: string) => {
      if (!specifier.startsWith('.')) return;
      const target = resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));
      targets.push(relative(root, target.endsWith('.ts') ? target : `${target}.ts`));
    };
    const visit = (node: ts.Node): void => {
      if (
        (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
        node.moduleSpecifier &&
        ts.isStringLiteral(node.moduleSpecifier)
      )
        add(node.moduleSpecifier.text);
      else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal))
        add(node.argument.literal.text);
      else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const [first] = node.arguments;
        if (first && ts.isStringLiteral(first)) add(first.text);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    graph.set(relative(root, file), targets);
  }
  return graph;
}

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...tsFiles(path));
    else if (entry.name.endsWith('.ts')) out.push(path);
  }
  return out.sort();
}

/**
 * The import circles of a graph: its strongly connected components of more than one file (or of one
 * file importing itself), each sorted, found with Tarjan's algorithm.
 */
export function importCycles(graph: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        connect(target);
        low.set(file, Math.min(low.get(file) as number, low.get(target) as number));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file) as number, index.get(target) as number));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) connect(file);
  return cycles.sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
}

/**
 * The layer of a file: the index of the longest entry of `layers` (bottom first) that is its folder or
 * a folder above it, or `undefined` for a file in no listed folder (e.g. the entry `index.ts`).
 */
export function layerOf(file: string, layers: readonly string[]): number | undefined {
  let best: number | undefined;
  for (let i = 0; i < layers.length; i++) {
    const layer = layers[i] as string;
    if (file.startsWith(`${layer}/`) && (best === undefined || layer.length > (layers[best] as string).length)) best = i;
  }
  return best;
}

/**
 * Each import that runs from a lower layer up to a higher one, as `from -> to`. A file in no listed
 * folder counts as above every layer. Imports within one layer are not counted.
 */
export function upwardImports(graph: ImportGraph, layers: readonly string[]): string[] {
  const rank = (file: string) => layerOf(file, layers) ?? layers.length;
  const out: string[] = [];
  for (const [file, targets] of graph) for (const target of targets) if (rank(target) > rank(file)) out.push(`${file} -> ${target}`);
  return out.sort();
}
