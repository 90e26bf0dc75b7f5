import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { StudioError } from '../errors.js';

/** What a `FileSessionStore` directory holds at its top (sessions, and the app and user state). */
const STORE_ENTRIES = ['sessions', 'app-state', 'user-state'];

const isDir = (path: string) => existsSync(path) && statSync(path).isDirectory();
const holdsStore = (dir: string) => STORE_ENTRIES.some((entry) => isDir(join(dir, entry)));
const entriesOf = (dir: string) => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};

/** Edit distance of two short names (for "did you mean"). */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] as number;
      row[j] = Math.min(above + 1, (row[j - 1] as number) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length] as number;
}

/** Directories near `dir` that do hold a store: a sibling with a close name, a child, or the store `dir` sits in. */
function likelyStores(dir: string): string[] {
  const found: string[] = [];
  const parent = dirname(dir);
  const name = basename(dir).toLowerCase();
  for (const sibling of entriesOf(parent)) {
    const path = join(parent, sibling);
    if (path !== dir && distance(sibling.toLowerCase(), name) <= 2 && isDir(path) && holdsStore(path)) found.push(path);
  }
  if (isDir(dir))
    for (const child of entriesOf(dir)) if (isDir(join(dir, child)) && holdsStore(join(dir, child))) found.push(join(dir, child));
  // `<store>/sessions` or `<store>/sessions/<app>` given instead of the store itself.
  for (let up = parent, i = 0; i < 3 && up !== dirname(up); up = dirname(up), i++) if (holdsStore(up)) found.push(up);
  return found;
}

const shown = (path: string) => {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') ? `./${rel}` : path;
};

/**
 * Checks a `--store` directory before a `FileSessionStore` opens it: a missing directory, or one
 * that holds no replan store, is a `StudioError` of kind `usage` naming the path and the directory probably
 * meant. `mayBeNew` (the studio serving runners, which write sessions) accepts an empty directory.
 */
export function checkStoreDirectory(spec: string, options: { readonly mayBeNew?: boolean } = {}): string {
  const dir = resolve(spec);
  const hint = () => {
    const near = likelyStores(dir);
    return near.length ? ` Did you mean ${near.map((p) => `--store ${shown(p)}`).join(' or ')}?` : '';
  };
  if (!existsSync(dir))
    throw new StudioError(
      'usage',
      `--store ${spec}: there is no directory ${dir}.${hint()} Give the directory your FileSessionStore writes to (or a postgres:// URL).`,
    );
  if (!statSync(dir).isDirectory())
    throw new StudioError('usage', `--store ${spec} is a file: give the FileSessionStore directory (or a postgres:// URL).`);
  if (holdsStore(dir) || (options.mayBeNew && entriesOf(dir).length === 0)) return dir;
  throw new StudioError(
    'usage',
    `--store ${spec}: ${dir} holds no replan session store (no ${STORE_ENTRIES.map((e) => `${e}/`).join(', ')} in it).${hint()} ` +
      'Give the directory your FileSessionStore writes to.',
  );
}
