import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { FileSessionStore, type SessionStore } from '@replan/core';
import type { Owners } from '../web/src/wire-types.js';

/** Apps and users known without asking the store (`list` needs both). */
export interface OwnerHints {
  readonly apps?: readonly string[];
  readonly users?: readonly string[];
}

/**
 * Which apps and users to offer. `SessionStore` has no "list everything", so: the hints, the
 * runners' apps, and what the store lets us discover — a `FileSessionStore` by reading its
 * directory (each session file's header holds its exact key); other stores (in-memory,
 * PostgreSQL) only through hints or a user typed in the page.
 */
export async function discoverOwners(store: SessionStore, hints: OwnerHints, runnerApps: readonly string[]): Promise<Owners> {
  const users = new Map<string, Set<string>>();
  const add = (app: string, user?: string) => {
    const set = users.get(app) ?? new Set<string>();
    if (user !== undefined) set.add(user);
    users.set(app, set);
  };
  for (const app of [...(hints.apps ?? []), ...runnerApps]) {
    add(app);
    for (const user of hints.users ?? []) add(app, user);
  }
  let discovery = 'hints';
  if (store instanceof FileSessionStore) {
    discovery = 'directory';
    for (const key of await fileStoreOwners(store.dir)) add(key.appName, key.userId);
  }
  const sorted = [...users.keys()].sort();
  return { apps: sorted, users: Object.fromEntries(sorted.map((app) => [app, [...(users.get(app) ?? [])].sort()])), discovery };
}

/** Reads one session header per user directory of a file store: `sessions/<app>/<user>/<id>.jsonl`. */
async function fileStoreOwners(dir: string): Promise<{ appName: string; userId: string }[]> {
  const root = join(dir, 'sessions');
  const found: { appName: string; userId: string }[] = [];
  for (const app of await readdir(root).catch(() => [] as string[]))
    for (const user of await readdir(join(root, app)).catch(() => [] as string[])) {
      const files = (await readdir(join(root, app, user)).catch(() => [] as string[])).filter((f) => f.endsWith('.jsonl'));
      for (const file of files) {
        const header = await readHeader(join(root, app, user, file));
        if (header) {
          found.push(header);
          break;
        }
      }
    }
  return found;
}

async function readHeader(path: string): Promise<{ appName: string; userId: string } | undefined> {
  try {
    // The header is the first line; 64 KiB holds it (ids are at most 256 characters).
    const file = await open(path, 'r');
    const { buffer, bytesRead } = await file.read({ buffer: Buffer.alloc(65536) }).finally(() => file.close());
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    const line = text.slice(0, text.indexOf('\n') >>> 0);
    const header = JSON.parse(line) as { appName?: unknown; userId?: unknown };
    return typeof header.appName === 'string' && typeof header.userId === 'string'
      ? { appName: header.appName, userId: header.userId }
      : undefined;
  } catch {
    return undefined;
  }
}
