// `pnpm release:check`: what a release would publish, installed the way a user of npm installs it.
// Packs every package under packages/, installs the tarballs with npm into a new CommonJS project (what
// `npm init` writes) outside the repository, type-checks a file importing every entry point under
// `nodenext` with skipLibCheck off, and runs it as CommonJS (require) and as ESM (import).
//   --node <major>  also run on that Node (npx -y -p node@<major>); may be repeated
//   --keep          leave the scratch directory in place and print its path
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  checkEntryPointProject,
  type NodeCommand,
  nodeFromRegistry,
  thisNode,
  writeEntryPointProject,
} from './release/entry-point-project.js';
import { entryPointProblems } from './release/entry-point-problems.js';
import { freshDir } from './release/scratch-dir.js';
import { installTarballs, packTarballs } from './release/tarballs.js';
import { workspacePackages } from './release/workspace-packages.js';

const { values } = parseArgs({ options: { node: { type: 'string', multiple: true }, keep: { type: 'boolean' } } });
const nodes: NodeCommand[] = [thisNode, ...(values.node ?? []).map((major) => nodeFromRegistry(Number(major)))];
const packages = workspacePackages();
const entryPoints = packages.flatMap((p) => p.entryPoints);
const root = await freshDir('release-check');
const step = (text: string) => console.log(`release:check: ${text}`);

let failed = false;
try {
  step(`packing ${packages.length} packages (${packages.map((p) => p.name).join(', ')})`);
  const tarballs = await packTarballs(join(root, 'tarballs'));
  if (tarballs.length !== packages.length) throw new Error(`expected ${packages.length} tarballs, got:\n${tarballs.join('\n')}`);
  const project = join(root, 'project');
  await writeEntryPointProject(project, entryPoints);
  step(`npm install of the tarballs into ${project}`);
  await installTarballs(project, tarballs);
  step(`type-checking and running ${entryPoints.length} entry points (require and import)`);
  const outcomes = await checkEntryPointProject(project, join(project, 'node_modules/typescript/bin/tsc'), nodes);
  const problems = entryPointProblems(outcomes, entryPoints);
  for (const outcome of outcomes) step(`Node ${outcome.node}: ${entryPoints.length} entry points load with require() and import`);
  if (problems.length > 0) throw new Error(problems.join('\n'));
  step('ok: every package packs, installs with npm, type-checks and loads with require() and import');
} catch (error) {
  failed = true;
  console.error(`release:check failed: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  if (values.keep) step(`kept ${root} (the tarballs are in tarballs/, the project in project/)`);
  else await rm(root, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
