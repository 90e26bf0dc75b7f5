import { MemoryError } from '../../src/memory-error.js';
import type { MemoryHit, MemoryItem, MemoryList, MemoryScope, MemorySearch, MemoryStore, NewMemory } from '../../src/memory-store.js';

// A store double for the agent-side tests (the real stores are tested by the contract suite, and
// the agent side on them too): exact scopes, predictable word-overlap scores (share of the query's
// words found), counters, and switches for the failures the agent side must handle.
const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
const sameScope = (a: MemoryScope, b: MemoryScope) => a.appName === b.appName && a.userId === b.userId;

export class ScriptedMemoryStore implements MemoryStore {
  readonly items: MemoryItem[] = [];
  /** Set to make every call fail as a store that is down. */
  down: string | undefined;
  /** Set to make `put` throw this (once per set). */
  failPut: Error | undefined;
  searches = 0;
  puts = 0;
  private next = 0;

  private check(): void {
    if (this.down) throw new MemoryError('unavailable', this.down);
  }

  async put(memory: NewMemory): Promise<MemoryItem> {
    this.check();
    this.puts++;
    if (this.failPut) {
      const error = this.failPut;
      this.failPut = undefined;
      throw error;
    }
    const item: MemoryItem = { ...memory, id: `m${++this.next}`, createdAt: Date.UTC(2026, 10, 28) };
    this.items.push(item);
    return item;
  }

  async search(query: MemorySearch): Promise<MemoryHit[]> {
    this.check();
    this.searches++;
    const q = words(query.query);
    const hits: MemoryHit[] = [];
    for (const item of this.items) {
      if (!sameScope(item.scope, query.scope)) continue;
      if (query.kinds && !query.kinds.includes(item.kind)) continue;
      const w = words(item.text);
      let score = 0;
      for (const t of q) if (w.has(t)) score++;
      if (score > 0) hits.push({ item, score: score / Math.max(q.size, 1) });
    }
    return hits.sort((a, b) => b.score - a.score).slice(0, query.k ?? 5);
  }

  async list(query: MemoryList): Promise<{ items: MemoryItem[] }> {
    this.check();
    return { items: this.items.filter((i) => sameScope(i.scope, query.scope) && (!query.kinds || query.kinds.includes(i.kind))) };
  }

  async get(scope: MemoryScope, id: string): Promise<MemoryItem | undefined> {
    this.check();
    return this.items.find((i) => i.id === id && sameScope(i.scope, scope));
  }

  async delete(scope: MemoryScope, id: string): Promise<boolean> {
    this.check();
    const at = this.items.findIndex((i) => i.id === id && sameScope(i.scope, scope));
    if (at < 0) return false;
    this.items.splice(at, 1);
    return true;
  }

  async forgetUser(user: { appName: string; userId: string }): Promise<number> {
    this.check();
    const before = this.items.length;
    for (let i = this.items.length - 1; i >= 0; i--) if (sameScope(this.items[i]!.scope, user)) this.items.splice(i, 1);
    return before - this.items.length;
  }
}
