import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SessionStore } from '@replan/core';
import type { StudioRunners } from '../actions/studio-actions.js';
import { StudioError } from '../errors.js';

type RunnersFactory = (store: SessionStore) => StudioRunners | Promise<StudioRunners>;

/**
 * Loads `--runners <module>`: it exports `createRunners(store)` (or a default function) returning the
 * app's runners built on the studio's store. A TypeScript module is loaded through tsx's register
 * API (`tsx/esm/api`), so no build step is needed when tsx is installed.
 */
export async function loadRunners(modulePath: string, store: SessionStore): Promise<StudioRunners> {
  const file = resolve(modulePath);
  if (/\.[mc]?tsx?$/.test(file)) {
    let api: { register: () => unknown };
    try {
      api = (await import('tsx/esm/api' as string)) as { register: () => unknown };
    } catch {
      throw new StudioError(
        'usage',
        `--runners ${modulePath} is TypeScript: install tsx (pnpm add -D tsx) to load it without a build, or pass the built .js file.`,
      );
    }
    api.register();
  }
  let mod: { createRunners?: unknown; default?: unknown };
  try {
    mod = (await import(pathToFileURL(file).href)) as typeof mod;
  } catch (error) {
    throw new StudioError('usage', `Could not load --runners ${modulePath}: ${(error as Error).message}`);
  }
  const factory = (typeof mod.createRunners === 'function' ? mod.createRunners : mod.default) as RunnersFactory | undefined;
  if (typeof factory !== 'function')
    throw new StudioError(
      'usage',
      `--runners ${modulePath} must export createRunners(store) (or a default function) returning the app's Runners built on that store.`,
    );
  return factory(store);
}
