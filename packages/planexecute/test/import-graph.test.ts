import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Files that import each other (directly or around a loop) cannot be read, tested or moved one at a
// time; planexecute has none. Type-only imports count: they tie the files' meanings together too.
const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The files of this package a file imports or re-exports from (`import … from './x.js'`, `export … from`). */
function localImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+['"](\.[^'"]+)['"]/gms)].map((m) => m[1] as string);
  return specifiers.map((s) => resolve(dirname(file), s.replace(/\.js$/, '.ts')));
}

/** Every cycle found by a depth-first walk, each as the files around it (relative to src/). */
function cycles(files: readonly string[]): string[][] {
  const graph = new Map(files.map((f) => [f, localImports(f).filter((to) => files.includes(to))]));
  const found: string[][] = [];
  const done = new Set<string>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    const at = stack.indexOf(file);
    if (at >= 0) {
      found.push([...stack.slice(at), file].map((f) => relative(SRC, f)));
      return;
    }
    if (done.has(file)) return;
    stack.push(file);
    for (const to of graph.get(file) ?? []) visit(to);
    stack.pop();
    done.add(file);
  };
  for (const file of files) visit(file);
  return found;
}

/**
 * The folders of src/ as layers, bottom first ('.' is the package's own top: the agent, its parts'
 * factories, the entry). A file imports from its own layer or below, but for the few listed in ALLOWED_UP.
 */
const LAYERS = ['policy', 'budget', 'base', 'compensation', 'graph', 'grants', 'review', 'modes', 'memory', '.', 'terminal', 'testing'];
/** Imports that run up a layer, all type-only: the mode a part is bound to, a graph step's prompt input. */
const ALLOWED_UP = [
  'base/executor-options.ts → graph/graph-prompts.ts',
  'base/part-scope.ts → modes/plan-mode.ts',
  'base/plan-decider.ts → modes/plan-mode.ts',
];

const folderOf = (file: string) => dirname(relative(SRC, file));

function upwardImports(files: readonly string[]): string[] {
  return files.flatMap((file) =>
    localImports(file)
      .filter((to) => LAYERS.indexOf(folderOf(to)) > LAYERS.indexOf(folderOf(file)))
      .map((to) => `${relative(SRC, file)} → ${relative(SRC, to)}`),
  );
}

describe('planexecute import graph', () => {
  it('puts every folder in a layer, and lets at most 3 imports run up a layer', () => {
    const files = sourceFiles(SRC);
    expect([...new Set(files.map(folderOf))].filter((folder) => !LAYERS.includes(folder))).toEqual([]);
    expect(upwardImports(files).sort()).toEqual(ALLOWED_UP);
    expect(ALLOWED_UP.length).toBeLessThanOrEqual(3);
  });

  it('finds an import that runs up a layer', () => {
    expect(upwardImports([join(SRC, 'base/plan-decider.ts')])).toEqual(['base/plan-decider.ts → modes/plan-mode.ts']);
  });

  it('reads imports, type imports and re-exports', () => {
    const index = localImports(join(SRC, 'index.ts')).map((f) => relative(SRC, f));
    expect(index).toContain('plan-execute-agent.ts');
    expect(cycles([join(SRC, 'index.ts')])).toEqual([]);
  });

  it('has no import circle', () => {
    expect(cycles(sourceFiles(SRC))).toEqual([]);
  });
});
