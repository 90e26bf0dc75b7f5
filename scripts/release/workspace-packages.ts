import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The replan repository. */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** One of our packages, as its `packages/<dir>/package.json` declares it. */
export interface WorkspacePackage {
  /** Its folder under `packages/`. */
  readonly dir: string;
  /** Its npm name, e.g. `@replan/core`. */
  readonly name: string;
  /** Every specifier an application can import: the name, then each subpath of its `exports` map (`@replan/core/testing`). */
  readonly entryPoints: readonly string[];
  readonly manifest: PackageManifest;
}

/** The fields of a package.json that the release and doc checks read. */
export interface PackageManifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly exports?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
  readonly scripts?: Readonly<Record<string, string>>;
}

/**
 * Every package under `packages/`, read from its package.json, by folder name. This is the one list of
 * packages: the release check, the consumers suite and the doc tests all derive from it, so a new package
 * is a new folder and nothing else to register.
 */
export function workspacePackages(root: string = repoRoot): WorkspacePackage[] {
  const dirs = readdirSync(join(root, 'packages'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return dirs.flatMap((dir) => {
    let text: string;
    try {
      text = readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8');
    } catch {
      return []; // a folder left behind (e.g. only a dist/ or node_modules/ of a removed package)
    }
    const manifest = JSON.parse(text) as PackageManifest;
    const subpaths = Object.keys(manifest.exports ?? { '.': {} });
    const entryPoints = subpaths.map((subpath) => (subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`));
    return [{ dir, name: manifest.name, entryPoints, manifest }];
  });
}
