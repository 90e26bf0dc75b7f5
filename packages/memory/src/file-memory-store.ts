import { unlink } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { ConfigurationError } from '@replan/core';
import type { MemoryStoreOptions } from './in-memory-memory-store.js';
import { MemoryError } from './memory-error.js';
import type { MemoryHit, MemoryItem, MemoryList, MemoryScope, MemorySearch, MemoryStore, NewMemory } from './memory-store.js';
import { errorCode, scopeFile } from './store/file/memory-files.js';
import { deleteLine, putLine, ScopeLog } from './store/file/scope-log.js';
import { searchIndex } from './store/indexed-search.js';
import { StoreCore } from './store/store-core.js';
import { isMemoryId } from './store/memory-ids.js';
import { checkId, checkList, checkScope, checkSearch, checkUser, type Scope, scopeKey } from './store/memory-rules.js';

/** Options of `FileMemoryStore`. */
export interface FileMemoryStoreOptions extends MemoryStoreOptions {
  /**
   * The directory to keep memories in (created when missing): give it the `FileSessionStore`'s
   * `dir` to keep them beside the sessions, in its `memories/` folder.
   */
  readonly dir: string;
}

/**
 * Memories as files, beside the sessions: one append-only JSONL log per scope under
 * `<dir>/memories/` (names are SHA-256 digests of the ids, so no id can reach another path), read
 * into memory on first use and searched there like `InMemoryMemoryStore` (BM25, or cosine with an
 * embedder — vectors are stored with their items, so reopening needs no re-embedding).
 *
 * Every `put` and `delete` is flushed before it returns; puts that arrive together share one flush.
 * Several processes may use one directory: each read catches up with what the others appended, and
 * `forgetUser` removes the user's file (the others notice). A delete appends a record rather than
 * rewriting the file, so a log grows with deletes until its user is forgotten.
 */
export class FileMemoryStore implements MemoryStore {
  /** The absolute directory this store writes below. */
  readonly dir: string;
  private readonly logs = new Map<string, ScopeLog>();
  private readonly core: StoreCore;

  constructor(options: FileMemoryStoreOptions) {
    if (typeof options?.dir !== 'string' || options.dir === '')
      throw new ConfigurationError(
        'FileMemoryStore needs a directory: new FileMemoryStore({ dir: "./data" }) (memories go to ./data/memories).',
      );
    this.dir = resolve(options.dir);
    this.core = new StoreCore('FileMemoryStore', options);
  }

  async put(memory: NewMemory): Promise<MemoryItem> {
    const { scope, item, vector } = await this.core.prepare(memory);
    const log = await this.current(scope); // a log refused as another scope's is never appended to
    await log.append(putLine(item, vector));
    await log.catchUp();
    return item;
  }

  async search(query: MemorySearch): Promise<MemoryHit[]> {
    const checked = checkSearch(query, this.core.limits);
    const log = await this.current(checked.scope);
    return searchIndex(log.index, checked, this.core.embedder);
  }

  async list(query: MemoryList): Promise<{ items: MemoryItem[]; nextCursor?: string }> {
    const checked = checkList(query, isMemoryId);
    return (await this.current(checked.scope)).index.page(checked.kinds, checked.limit, checked.after);
  }

  async get(scope: MemoryScope, id: string): Promise<MemoryItem | undefined> {
    const checkedScope = checkScope(scope);
    const checked = checkId(id);
    return (await this.current(checkedScope)).index.get(checked);
  }

  async delete(scope: MemoryScope, id: string): Promise<boolean> {
    const checkedScope = checkScope(scope);
    const checked = checkId(id);
    const log = await this.current(checkedScope);
    if (!log.index.get(checked)) return false;
    await log.append(deleteLine(checked));
    await log.catchUp();
    return true;
  }

  async forgetUser(user: { readonly appName: string; readonly userId: string }): Promise<number> {
    const log = await this.current(checkUser(user));
    const count = log.index.size;
    try {
      await unlink(log.path);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT')
        throw new MemoryError('unavailable', `FileMemoryStore could not remove ${this.describe(log.path)}: ${(error as Error).message}.`, {
          cause: error,
        });
    }
    log.reset();
    return count;
  }

  private log(scope: Scope): ScopeLog {
    const key = scopeKey(scope);
    let log = this.logs.get(key);
    if (!log) {
      const path = scopeFile(this.dir, scope);
      log = new ScopeLog(path, scope, (vector) => this.core.embedder.observe(vector.values.length), this.describe(path));
      this.logs.set(key, log);
    }
    return log;
  }

  /** The scope's log, caught up with the file. */
  private async current(scope: Scope): Promise<ScopeLog> {
    const log = this.log(scope);
    await log.catchUp();
    return log;
  }

  private describe(path: string): string {
    return `${relative(this.dir, path)} in ${this.dir}`;
  }
}
