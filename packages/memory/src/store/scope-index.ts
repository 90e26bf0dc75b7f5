import MiniSearch, { type SearchResult } from 'minisearch';
import type { MemoryHit, MemoryItem, MemoryKind } from '../memory-store.js';
import { cosine, type Vector } from './embedding.js';
import { compareIds } from './memory-ids.js';

/** Higher score first; equal scores oldest first (by id), so every search of the same data gives one order. */
export function byScoreThenId(a: MemoryHit, b: MemoryHit): number {
  return b.score - a.score || compareIds(a.item.id, b.item.id);
}

/**
 * The best `k` of `hits` in `byScoreThenId` order, without sorting them all (a common term can match
 * most of a 100k-item scope): a sorted window of at most `k`, entered only by hits that beat its last.
 */
export function topK(hits: Iterable<MemoryHit>, k: number): MemoryHit[] {
  const best: MemoryHit[] = [];
  for (const hit of hits) {
    if (best.length === k && byScoreThenId(hit, best[k - 1]!) >= 0) continue;
    let at = best.length;
    while (at > 0 && byScoreThenId(hit, best[at - 1]!) < 0) at--;
    best.splice(at, 0, hit);
    if (best.length > k) best.pop();
  }
  return best;
}

/** Index of the first id in the sorted `ids` greater than `after` (binary search). */
function firstAfter(ids: readonly string[], after: string): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid]! <= after) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The memories of one scope, held in memory: the items by id, their ids in creation order (for
 * list pages), a BM25 index (minisearch; exact terms — no fuzzy or prefix matching, so a search
 * finds what was written, not guesses) and, with an embedder, one vector per item.
 */
export class ScopeIndex {
  private readonly items = new Map<string, MemoryItem>();
  private readonly vectors = new Map<string, Vector>();
  private readonly ids: string[] = [];
  private readonly lexical = new MiniSearch<{ id: string; text: string; kind: MemoryKind }>({
    fields: ['text'],
    storeFields: ['kind'],
    searchOptions: { fuzzy: false, prefix: false, combineWith: 'OR' },
  });

  get size(): number {
    return this.items.size;
  }

  get(id: string): MemoryItem | undefined {
    return this.items.get(id);
  }

  /** Every item, oldest first. */
  all(): MemoryItem[] {
    return this.ids.map((id) => this.items.get(id)!);
  }

  add(item: MemoryItem, vector: Vector | undefined): void {
    if (this.items.has(item.id)) return; // a record read twice (a log re-read) counts once
    this.items.set(item.id, item);
    if (vector) this.vectors.set(item.id, vector);
    const last = this.ids[this.ids.length - 1];
    if (last === undefined || last < item.id) this.ids.push(item.id);
    else this.ids.splice(firstAfter(this.ids, item.id), 0, item.id);
    this.lexical.add({ id: item.id, text: item.text, kind: item.kind });
  }

  remove(id: string): boolean {
    if (!this.items.delete(id)) return false;
    this.vectors.delete(id);
    const at = firstAfter(this.ids, id) - 1;
    if (this.ids[at] === id) this.ids.splice(at, 1);
    this.lexical.discard(id);
    return true;
  }

  /** Ids that have no vector yet (stored without an embedder), oldest first. */
  missingVectors(): MemoryItem[] {
    if (this.vectors.size === this.items.size) return []; // the usual case: no scan per search
    return this.all().filter((item) => !this.vectors.has(item.id));
  }

  setVector(id: string, vector: Vector): void {
    if (this.items.has(id)) this.vectors.set(id, vector);
  }

  /** BM25 over the texts; only items sharing a term with the query. */
  searchText(query: string, k: number, kinds: readonly MemoryKind[] | undefined): MemoryHit[] {
    const filter = kinds ? (r: SearchResult) => kinds.includes(r.kind as MemoryKind) : undefined;
    const results = this.lexical.search(query, filter ? { filter } : {});
    const items = this.items;
    return topK(
      (function* () {
        for (const r of results) {
          const item = items.get(r.id as string);
          if (item) yield { item, score: r.score };
        }
      })(),
      k,
    );
  }

  /** Cosine similarity to `query`; only items with a positive score. */
  searchVector(query: Vector, k: number, kinds: readonly MemoryKind[] | undefined): MemoryHit[] {
    const { items, vectors } = this;
    return topK(
      (function* () {
        for (const [id, vector] of vectors) {
          const item = items.get(id)!;
          if (kinds && !kinds.includes(item.kind)) continue;
          const score = cosine(query, vector);
          if (score > 0) yield { item, score };
        }
      })(),
      k,
    );
  }

  /** One page, oldest first, after the id `after`. */
  page(kinds: readonly MemoryKind[] | undefined, limit: number, after: string | undefined): { items: MemoryItem[]; nextCursor?: string } {
    const items: MemoryItem[] = [];
    for (let i = after === undefined ? 0 : firstAfter(this.ids, after); i < this.ids.length; i++) {
      const item = this.items.get(this.ids[i]!)!;
      if (kinds && !kinds.includes(item.kind)) continue;
      if (items.length === limit) return { items, nextCursor: items[items.length - 1]!.id };
      items.push(item);
    }
    return { items };
  }
}
