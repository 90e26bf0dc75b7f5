import type { Embedder, MemoryHit } from '../memory-store.js';
import { embedChecked, type Vector } from './embedding.js';
import type { CheckedSearch } from './memory-rules.js';
import type { ScopeIndex } from './scope-index.js';

/**
 * Vectors of one store: the embedder, and the length of its vectors once one was seen (every later
 * vector, stored or queried, must have it).
 */
export class StoreEmbedder {
  private dimensions: number | undefined;

  constructor(readonly embed: Embedder | undefined) {}

  /** Records the length of vectors the store already holds (read back from storage). */
  observe(length: number): void {
    this.dimensions ??= length;
  }

  /** One checked vector per text, or `undefined` without an embedder. */
  async vectors(texts: readonly string[]): Promise<Vector[] | undefined> {
    if (!this.embed || texts.length === 0) return undefined;
    const vectors = await embedChecked(this.embed, texts, this.dimensions);
    if (vectors[0]) this.observe(vectors[0].values.length);
    return vectors;
  }
}

/**
 * A search over one scope held in memory: lexical (BM25) without an embedder, cosine with one. Items
 * stored before the embedder was configured are embedded first (once; kept in memory).
 */
export async function searchIndex(index: ScopeIndex | undefined, search: CheckedSearch, embedder: StoreEmbedder): Promise<MemoryHit[]> {
  if (!index || index.size === 0 || search.query === '') return [];
  if (!embedder.embed) return index.searchText(search.query, search.k, search.kinds);
  const missing = index.missingVectors();
  const stored = await embedder.vectors(missing.map((item) => item.text));
  for (const [i, item] of missing.entries()) index.setVector(item.id, stored![i]!);
  const [query] = (await embedder.vectors([search.query]))!;
  return index.searchVector(query!, search.k, search.kinds);
}
