import type { Embedder, MemoryHit, MemoryItem, MemoryList, MemoryScope, MemorySearch, MemoryStore, NewMemory } from './memory-store.js';
import { searchIndex } from './store/indexed-search.js';
import { StoreCore } from './store/store-core.js';
import { isMemoryId } from './store/memory-ids.js';
import { checkId, checkList, checkScope, checkSearch, checkUser, type MemoryLimits, scopeKey } from './store/memory-rules.js';
import { ScopeIndex } from './store/scope-index.js';

/** Options of the in-memory store (and the base of the file and PostgreSQL stores' options). */
export interface MemoryStoreOptions {
  /**
   * Turns texts into vectors: with it, `search` ranks by cosine similarity of embeddings (each
   * item's vector is computed once, at `put`); without it, by BM25 over the words. The embedder
   * throwing, or returning the wrong number of vectors or a vector of another length, is
   * `MemoryError('embedder')` (nothing stored).
   */
  readonly embed?: Embedder;
  /** Size limits (defaults: 64 KiB of text, 64 KiB of metadata JSON). */
  readonly limits?: MemoryLimits;
}

/**
 * Memories in this process only (tests, demos, one-off scripts): gone when it exits. Search is BM25
 * (minisearch, exact words — no fuzzy or prefix matching) by default, cosine similarity with an
 * embedder; equal scores come oldest first. Each scope has its own index, so a search can only
 * see its own scope's items.
 */
export class InMemoryMemoryStore implements MemoryStore {
  private readonly scopes = new Map<string, ScopeIndex>();
  private readonly core: StoreCore;

  constructor(options: MemoryStoreOptions = {}) {
    this.core = new StoreCore('InMemoryMemoryStore', options);
  }

  async put(memory: NewMemory): Promise<MemoryItem> {
    const { scope, item, vector } = await this.core.prepare(memory);
    const key = scopeKey(scope);
    let index = this.scopes.get(key);
    if (!index) {
      index = new ScopeIndex();
      this.scopes.set(key, index);
    }
    index.add(item, vector);
    return item;
  }

  async search(query: MemorySearch): Promise<MemoryHit[]> {
    const checked = checkSearch(query, this.core.limits);
    return searchIndex(this.scopes.get(scopeKey(checked.scope)), checked, this.core.embedder);
  }

  async list(query: MemoryList): Promise<{ items: MemoryItem[]; nextCursor?: string }> {
    const checked = checkList(query, isMemoryId);
    return this.scopes.get(scopeKey(checked.scope))?.page(checked.kinds, checked.limit, checked.after) ?? { items: [] };
  }

  async get(scope: MemoryScope, id: string): Promise<MemoryItem | undefined> {
    const key = scopeKey(checkScope(scope));
    const checked = checkId(id);
    return this.scopes.get(key)?.get(checked);
  }

  async delete(scope: MemoryScope, id: string): Promise<boolean> {
    const key = scopeKey(checkScope(scope));
    const checked = checkId(id);
    return this.scopes.get(key)?.remove(checked) ?? false;
  }

  async forgetUser(user: { readonly appName: string; readonly userId: string }): Promise<number> {
    const key = scopeKey(checkUser(user));
    const count = this.scopes.get(key)?.size ?? 0;
    this.scopes.delete(key);
    return count;
  }
}
