import type { MemoryHit } from '../memory-store.js';
import { cosine, toVector } from '../store/embedding.js';
import type { StoreEmbedder } from '../store/indexed-search.js';
import type { CheckedSearch } from '../store/memory-rules.js';
import { topK } from '../store/scope-index.js';
import type { VectorSupport } from './memory-table.js';
import { ITEM_COLUMNS, type MemoryRow, rowToItem } from './memory-rows.js';

/** What a vector search needs of the store. */
export interface VectorContext {
  readonly table: string;
  readonly support: VectorSupport;
  readonly embedder: StoreEmbedder;
  readonly query: <R extends object>(sql: string, params: unknown[]) => Promise<R[]>;
}

const SCOPE_AND_KINDS = 'app_name = $1 AND user_id = $2 AND ($3::text[] IS NULL OR kind = ANY($3))';

/**
 * Semantic search: items stored before the embedder was configured are embedded first (and their
 * vectors stored); then the nearest items by cosine similarity, in the database with pgvector or
 * here over the stored vectors. Only positive similarities count, like the other stores.
 */
export async function searchVectors(ctx: VectorContext, search: CheckedSearch): Promise<MemoryHit[]> {
  const scope = [search.scope.appName, search.scope.userId ?? '', search.kinds ?? null];
  const missing = await ctx.query<{ id: string; text: string }>(
    `SELECT id, text FROM ${ctx.table} WHERE ${SCOPE_AND_KINDS} AND embedding IS NULL ORDER BY id`,
    scope,
  );
  const vectors = await ctx.embedder.vectors(missing.map((row) => row.text));
  for (const [i, row] of missing.entries()) {
    const values = Array.from(vectors![i]!.values);
    await ctx.query(
      `UPDATE ${ctx.table} SET embedding = $4::float8[]${ctx.support === 'pgvector' ? ', embedding_v = $4::float8[]::real[]::vector' : ''} WHERE app_name = $1 AND user_id = $2 AND id = $3`,
      [scope[0], scope[1], row.id, values],
    );
  }
  const [query] = (await ctx.embedder.vectors([search.query]))!;
  if (ctx.support === 'pgvector') {
    // Rows written with a vector while pgvector was not there yet get their `vector` copy now.
    await ctx.query(
      `UPDATE ${ctx.table} SET embedding_v = embedding::real[]::vector WHERE ${SCOPE_AND_KINDS} AND embedding IS NOT NULL AND embedding_v IS NULL`,
      scope,
    );
    const rows = await ctx.query<MemoryRow & { score: number }>(
      `SELECT ${ITEM_COLUMNS}, 1 - (embedding_v <=> $4::float8[]::real[]::vector) AS score FROM ${ctx.table}
       WHERE ${SCOPE_AND_KINDS} AND embedding_v IS NOT NULL
       ORDER BY embedding_v <=> $4::float8[]::real[]::vector, id LIMIT $5`,
      [...scope, Array.from(query!.values), search.k],
    );
    return rows.filter((row) => Number(row.score) > 0).map((row) => ({ item: rowToItem(row), score: Number(row.score) }));
  }
  // Without pgvector: every vector of the scope is read and compared here; only the best k rows are then fetched whole.
  const stored = await ctx.query<{ id: string; embedding: number[] }>(
    `SELECT id, embedding FROM ${ctx.table} WHERE ${SCOPE_AND_KINDS} AND embedding IS NOT NULL`,
    scope,
  );
  const scored = stored.map((row) => ({ id: row.id, score: cosine(query!, toVector(row.embedding)) })).filter((s) => s.score > 0);
  const best = topK(
    scored.map((s) => ({ item: { id: s.id } as MemoryHit['item'], score: s.score })),
    search.k,
  );
  if (best.length === 0) return [];
  const rows = await ctx.query<MemoryRow>(
    `SELECT ${ITEM_COLUMNS} FROM ${ctx.table} WHERE app_name = $1 AND user_id = $2 AND id = ANY($3)`,
    [scope[0], scope[1], best.map((b) => b.item.id)],
  );
  const byId = new Map(rows.map((row) => [row.id, rowToItem(row)]));
  return best.flatMap((b) => {
    const item = byId.get(b.item.id);
    return item ? [{ item, score: b.score }] : []; // deleted between the two reads
  });
}
