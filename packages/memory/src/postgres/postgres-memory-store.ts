import pg from 'pg';
import { ConfigurationError } from '@replan/core';
import type { MemoryStoreOptions } from '../in-memory-memory-store.js';
import { MemoryError } from '../memory-error.js';
import type { MemoryHit, MemoryItem, MemoryList, MemoryScope, MemorySearch, MemoryStore, NewMemory } from '../memory-store.js';
import { isMemoryId } from '../store/memory-ids.js';
import { type CheckedSearch, checkId, checkList, checkNewMemory, checkScope, checkSearch, checkUser } from '../store/memory-rules.js';
import { StoreCore } from '../store/store-core.js';
import { enablePgvector, MemoryTable, type VectorSupport } from './memory-table.js';
import { ITEM_COLUMNS, type MemoryRow, rowToItem } from './memory-rows.js';
import { searchVectors } from './vector-search.js';

/** Options of `PostgresMemoryStore`: a pool or a connection string (the sessions' database will do). */
export interface PostgresMemoryStoreOptions extends MemoryStoreOptions {
  /** A pool to use (not ended by `close()`); e.g. the one your `PostgresSessionStore` uses. */
  readonly pool?: pg.Pool;
  /** Or a connection string: the store makes its own pool (10 s connect timeout) and `close()` ends it. */
  readonly connectionString?: string;
  /** The schema of the `replan_memories` table (default `public`; created when missing). */
  readonly schema?: string;
  /**
   * The text search configuration of lexical search (default `english`: stemming, stop words),
   * written into the table when it is created.
   */
  readonly textSearch?: string;
  /** Where the store says that pgvector is missing (default `console.warn`, once per store). */
  readonly onWarning?: (message: string) => void;
}

/** Turns a query into an OR of its words: memories match on any word, ranked by how well they match. */
const OR_QUERY = (config: string, param: string) =>
  `replace(websearch_to_tsquery('${config}'::regconfig, ${param})::text, ' & ', ' | ')::tsquery`;

/**
 * Memories in PostgreSQL: one table, `replan_memories`, in the database you give it —
 * the sessions' database is fine. Lexical search is PostgreSQL full-text search: the words of the
 * query OR-ed (`websearch_to_tsquery`), ranked by `ts_rank_cd` over a GIN-indexed `tsvector`. With
 * an embedder, search is by cosine similarity: in the database with pgvector when the extension can
 * be created, else in this process over the stored vectors (the store warns once, naming the package
 * to install). A database that cannot be reached, or fails, is `MemoryError('unavailable')`.
 *
 * The table is created on first use; several processes may start at once. Call `close()` when done
 * if the store made its own pool.
 */
export class PostgresMemoryStore implements MemoryStore {
  private readonly pool: pg.Pool;
  private readonly ownsPool: boolean;
  private readonly table: MemoryTable;
  private readonly core: StoreCore;
  private readonly warn: (message: string) => void;
  private ready: Promise<VectorSupport> | undefined;

  constructor(options: PostgresMemoryStoreOptions) {
    if (!options?.pool && !options?.connectionString)
      throw new ConfigurationError(
        'PostgresMemoryStore needs { pool } or { connectionString }, e.g. new PostgresMemoryStore({ connectionString: process.env.DATABASE_URL }).',
      );
    this.ownsPool = !options.pool;
    this.pool =
      options.pool ??
      new pg.Pool({ connectionString: options.connectionString, max: 10, connectionTimeoutMillis: 10_000, keepAlive: true });
    // An idle connection dropped by the server must not crash the process; the next query reports it.
    if (this.ownsPool) this.pool.on('error', () => undefined);
    this.table = new MemoryTable(options.schema ?? 'public', options.textSearch ?? 'english');
    this.core = new StoreCore('PostgresMemoryStore', options);
    this.warn = options.onWarning ?? ((message) => console.warn(message));
  }

  /**
   * How semantic search runs, once the table is set up: `pgvector` in the database, `in-process`
   * over the stored vectors, `undefined` without an embedder (lexical only).
   */
  async vectorSearch(): Promise<VectorSupport | undefined> {
    const support = await this.setUp();
    return this.core.embedder.embed ? support : undefined;
  }

  async put(memory: NewMemory): Promise<MemoryItem> {
    checkNewMemory(memory, this.core.limits); // bad input is 'invalid' even while the database is down
    const support = await this.setUp(); // first: it learns the length of the vectors already stored
    const { scope, item, vector } = await this.core.prepare(memory);
    const values = vector ? Array.from(vector.values) : null;
    await this.query(
      `INSERT INTO ${this.table.name} (app_name, user_id, id, kind, text, metadata, source, created_at, embedding${support === 'pgvector' ? ', embedding_v' : ''})
       VALUES ($1, $2, $3, $4, $5, $6::json, $7::json, $8, $9::float8[]${support === 'pgvector' ? ', $9::float8[]::real[]::vector' : ''})`,
      [
        scope.appName,
        scope.userId ?? '',
        item.id,
        item.kind,
        item.text,
        item.metadata === undefined ? null : JSON.stringify(item.metadata),
        item.source === undefined ? null : JSON.stringify(item.source),
        item.createdAt,
        values,
      ],
    );
    return item;
  }

  async search(query: MemorySearch): Promise<MemoryHit[]> {
    const checked = checkSearch(query, this.core.limits);
    const support = await this.setUp();
    if (checked.query === '') return [];
    if (this.core.embedder.embed) return searchVectors(this.vectorContext(support), checked);
    return this.searchText(checked);
  }

  async list(query: MemoryList): Promise<{ items: MemoryItem[]; nextCursor?: string }> {
    const checked = checkList(query, isMemoryId);
    await this.setUp();
    const rows = await this.query<MemoryRow>(
      `SELECT ${ITEM_COLUMNS} FROM ${this.table.name}
       WHERE app_name = $1 AND user_id = $2 AND ($3::text[] IS NULL OR kind = ANY($3)) AND ($4::text IS NULL OR id > $4)
       ORDER BY id LIMIT $5`,
      [checked.scope.appName, checked.scope.userId ?? '', checked.kinds ?? null, checked.after ?? null, checked.limit + 1],
    );
    const items = rows.slice(0, checked.limit).map(rowToItem);
    return rows.length > checked.limit ? { items, nextCursor: items[items.length - 1]!.id } : { items };
  }

  async get(scope: MemoryScope, id: string): Promise<MemoryItem | undefined> {
    const checkedScope = checkScope(scope);
    if (!isMemoryId(checkId(id))) return undefined;
    await this.setUp();
    const [row] = await this.query<MemoryRow>(
      `SELECT ${ITEM_COLUMNS} FROM ${this.table.name} WHERE app_name = $1 AND user_id = $2 AND id = $3`,
      [checkedScope.appName, checkedScope.userId ?? '', id],
    );
    return row ? rowToItem(row) : undefined;
  }

  async delete(scope: MemoryScope, id: string): Promise<boolean> {
    const checkedScope = checkScope(scope);
    if (!isMemoryId(checkId(id))) return false;
    await this.setUp();
    return (
      (await this.run(`DELETE FROM ${this.table.name} WHERE app_name = $1 AND user_id = $2 AND id = $3`, [
        checkedScope.appName,
        checkedScope.userId ?? '',
        id,
      ])) > 0
    );
  }

  async forgetUser(user: { readonly appName: string; readonly userId: string }): Promise<number> {
    const scope = checkUser(user);
    await this.setUp();
    return this.run(`DELETE FROM ${this.table.name} WHERE app_name = $1 AND user_id = $2`, [scope.appName, scope.userId]);
  }

  /** Ends the pool the store made from `connectionString` (a pool you passed is yours to end). */
  async close(): Promise<void> {
    if (this.ownsPool) await this.pool.end();
  }

  private async searchText(search: CheckedSearch): Promise<MemoryHit[]> {
    const config = this.table.textSearch;
    const rows = await this.query<MemoryRow & { score: number }>(
      `SELECT ${ITEM_COLUMNS}, ts_rank_cd(tsv, q) AS score
       FROM ${this.table.name}, (SELECT ${OR_QUERY(config, '$3')} AS q) AS search_query
       WHERE app_name = $1 AND user_id = $2 AND ($4::text[] IS NULL OR kind = ANY($4)) AND tsv @@ q
       ORDER BY score DESC, id LIMIT $5`,
      [search.scope.appName, search.scope.userId ?? '', search.query, search.kinds ?? null, search.k],
    );
    return rows.map((row) => ({ item: rowToItem(row), score: Number(row.score) }));
  }

  private vectorContext(support: VectorSupport) {
    return { table: this.table.name, support, embedder: this.core.embedder, query: this.query.bind(this) };
  }

  /** Sets the table up once (again after a failure, e.g. the database was down). */
  private setUp(): Promise<VectorSupport> {
    this.ready ??= this.createTable().catch((error) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  private async createTable(): Promise<VectorSupport> {
    try {
      const missing = this.core.embedder.embed ? await enablePgvector(this.pool) : undefined;
      if (missing) this.warn(missing);
      const support: VectorSupport = this.core.embedder.embed && !missing ? 'pgvector' : 'in-process';
      await this.table.create(this.pool, support);
      const { rows } = await this.pool.query<{ n: number | null }>(
        `SELECT array_length(embedding, 1) AS n FROM ${this.table.name} WHERE embedding IS NOT NULL LIMIT 1`,
      );
      if (rows[0]?.n) this.core.embedder.observe(rows[0].n);
      return support;
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  private async query<R extends object>(sql: string, params: unknown[]): Promise<R[]> {
    try {
      return (await this.pool.query<R>(sql, params)).rows;
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  private async run(sql: string, params: unknown[]): Promise<number> {
    try {
      return (await this.pool.query(sql, params)).rowCount ?? 0;
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  private unavailable(error: unknown): MemoryError {
    if (error instanceof MemoryError) return error;
    const message = (error as Error)?.message || (error as { code?: string })?.code || String(error);
    return new MemoryError(
      'unavailable',
      `PostgresMemoryStore: the database failed or could not be reached (${message}). Check that PostgreSQL is running and reachable; the memory was not changed.`,
      { cause: error },
    );
  }
}
