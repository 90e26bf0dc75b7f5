import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { succeed } from './commands.js';

/**
 * A scratch project that loads every entry point of the installed packages two ways: `require-all.ts`,
 * a CommonJS file (tsc under `nodenext` turns its imports into `require()` calls: Node's require(esm),
 * on Node ≥ 20.19), and `import-all.mts`, an ES module that also checks that `require()` and `import`
 * give the very same module (one instance, so `instanceof` holds across both). Both are type-checked
 * with `skipLibCheck` off, so our declaration files are checked too.
 */
export async function writeEntryPointProject(dir: string, entryPoints: readonly string[]): Promise<void> {
  await mkdir(dir, { recursive: true });
  // `npm init` writes "type": "commonjs": the project a newcomer starts from.
  if (!existsSync(join(dir, 'package.json')))
    await writeFile(
      join(dir, 'package.json'),
      `${JSON.stringify({ name: 'replan-entry-points', private: true, type: 'commonjs' }, null, 2)}\n`,
    );
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      module: 'nodenext',
      moduleResolution: 'nodenext',
      strict: true,
      // Every declaration file is checked (ours and our peers'), so not with exactOptionalPropertyTypes: `ai` 6's
      // own declarations fail under it (TS2344 in ai/dist/index.d.ts). Our declarations are emitted from sources
      // compiled with it, and the consumer app checks its use of them with it (tsconfig.bundler.json).
      exactOptionalPropertyTypes: false,
      skipLibCheck: false,
      types: ['node'],
      rootDir: '.',
      outDir: 'out',
    },
    files: ['require-all.ts', 'import-all.mts'],
  };
  await writeFile(join(dir, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
  const imports = entryPoints.map((name, i) => `import * as entry${i} from '${name}';`).join('\n');
  const table = `{\n${entryPoints.map((name, i) => `  '${name}': entry${i},`).join('\n')}\n}`;
  await writeFile(
    join(dir, 'require-all.ts'),
    `// Written by scripts/release/entry-point-project.ts. A CommonJS file: these imports compile to require().
${imports}

const loaded: Record<string, object> = ${table};
const exported = Object.fromEntries(Object.entries(loaded).map(([name, ns]) => [name, Object.keys(ns).filter((k) => k !== 'default').length]));
console.log(\`${marker}\${JSON.stringify({ node: process.version, exported })}\`);
`,
  );
  await writeFile(
    join(dir, 'import-all.mts'),
    `// Written by scripts/release/entry-point-project.ts. An ES module; it also require()s each entry point.
import { createRequire } from 'node:module';
${imports}

const require = createRequire(import.meta.url);
const loaded: Record<string, Record<string, unknown>> = ${table};
const exported: Record<string, number> = {};
const sameAsRequire: Record<string, boolean> = {};
for (const [name, ns] of Object.entries(loaded)) {
  const required = require(name) as Record<string, unknown>;
  exported[name] = Object.keys(ns).length;
  sameAsRequire[name] = Object.keys(ns).every((key) => required[key] === ns[key]);
}
console.log(\`${marker}\${JSON.stringify({ node: process.version, exported, sameAsRequire })}\`);
`,
  );
}

const marker = 'replan-entry-points: ';

/** How to start a Node: this process's own, or one from the npm registry's `node` package (`npx -y -p node@22 node`). */
export interface NodeCommand {
  readonly file: string;
  readonly args: readonly string[];
}

/** This process's Node. */
export const thisNode: NodeCommand = { file: process.execPath, args: [] };

/** A Node of the given major version from the npm registry's `node` package (cached by npx after the first use). */
export const nodeFromRegistry = (major: number): NodeCommand => ({ file: 'npx', args: ['-y', '-p', `node@${major}`, 'node'] });

/** What one Node printed when it loaded every entry point. */
export interface EntryPointOutcome {
  /** `process.version` of that Node. */
  readonly node: string;
  /** Entry point → how many named exports `require()` gave. */
  readonly required: Readonly<Record<string, number>>;
  /** Entry point → how many named exports `import` gave. */
  readonly imported: Readonly<Record<string, number>>;
  /** Entry point → whether `require()` gave the same values as `import` (one module instance). */
  readonly sameAsRequire: Readonly<Record<string, boolean>>;
}

/**
 * Type-checks and compiles the project written by {@link writeEntryPointProject} with the TypeScript
 * compiler at `tsc`, then runs both files on each Node. Rejects with tsc's or node's output on failure.
 */
export async function checkEntryPointProject(
  dir: string,
  tsc: string,
  nodes: readonly NodeCommand[] = [thisNode],
): Promise<EntryPointOutcome[]> {
  await succeed(process.execPath, [tsc, '-p', 'tsconfig.json'], dir);
  const outcomes: EntryPointOutcome[] = [];
  for (const node of nodes) {
    const required = printed(await succeed(node.file, [...node.args, 'out/require-all.js'], dir)) as {
      node: string;
      exported: Record<string, number>;
    };
    const imported = printed(await succeed(node.file, [...node.args, 'out/import-all.mjs'], dir)) as {
      node: string;
      exported: Record<string, number>;
      sameAsRequire: Record<string, boolean>;
    };
    outcomes.push({ node: required.node, required: required.exported, imported: imported.exported, sameAsRequire: imported.sameAsRequire });
  }
  return outcomes;
}

// Node may print warnings (and npx its notices) beside the one line the scripts print.
function printed(output: string): unknown {
  const line = output.split('\n').find((l) => l.startsWith(marker));
  if (!line) throw new Error(`the entry-point script printed no result:\n${output}`);
  return JSON.parse(line.slice(marker.length));
}
