/**
 * The memory contract (what every memory store does). Helpers may refine names in TSDoc and add
 * optional fields; changing a required member means changing every store and the contract suite.
 */

/** Whose memory: the whole app's, or one user's within it (like `app:` and `user:` state). */
export type MemoryScope = { readonly appName: string; readonly userId?: undefined } | { readonly appName: string; readonly userId: string };

/** `fact`: a thing worth knowing; `episode`: what happened in a run; `plan`: an objective, the plan it ran and how it went. */
export type MemoryKind = 'fact' | 'episode' | 'plan';

/** Where a memory came from, so it can be traced to the session (and event) that wrote it. */
export interface MemorySource {
  readonly sessionId: string;
  readonly eventId?: string;
  readonly invocationId?: string;
}

/** What `put` takes. */
export interface NewMemory {
  readonly scope: MemoryScope;
  readonly kind: MemoryKind;
  /** The searchable text (untrusted: always shown to models quoted, as data). */
  readonly text: string;
  /** JSON only. */
  readonly metadata?: Readonly<Record<string, unknown>>;
  readonly source?: MemorySource;
}

/** A stored memory. */
export interface MemoryItem extends NewMemory {
  readonly id: string;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
}

/** What `search` takes. */
export interface MemorySearch {
  readonly scope: MemoryScope;
  /** Words to look for (lexical) or a text to compare meanings with (with an embedder); blank finds nothing. */
  readonly query: string;
  /** How many results at most: an integer from 1 to 1000 (default 5). */
  readonly k?: number;
  /** Only these kinds (default all). */
  readonly kinds?: readonly MemoryKind[];
}

/**
 * One search hit: higher `score` is closer; scores compare within one search only (BM25,
 * PostgreSQL's `ts_rank_cd` and cosine similarity differ in scale). Always positive.
 */
export interface MemoryHit {
  readonly item: MemoryItem;
  readonly score: number;
}

/** What `list` takes: one page of a scope's items, oldest first. */
export interface MemoryList {
  readonly scope: MemoryScope;
  /** Only these kinds (default all). */
  readonly kinds?: readonly MemoryKind[];
  /** Page size: an integer from 1 to 1000 (default 50). */
  readonly limit?: number;
  /** From a previous page's `nextCursor` (any other string is `MemoryError('invalid')`). */
  readonly cursor?: string;
}

/** Turns texts into vectors for semantic search; one vector per text, all of one length. */
export type Embedder = (texts: readonly string[]) => Promise<number[][]>;

/**
 * Long-term memory across sessions. A scope is exact: a search in `{ appName, userId: 'a' }` never
 * sees user `b`'s items, nor app-scope items (search both scopes to see both).
 *
 * Every method fails with `MemoryError`: `invalid` for a bad scope (core's id rules), kind, `k`,
 * cursor or non-JSON metadata; `too_large` over the store's limits; `embedder` when the embedder
 * throws or returns wrong vectors; `unavailable` when the storage cannot be reached. A failed `put`
 * stores nothing. `runMemoryStoreContract` (`@replan/memory/testing`) checks all of it.
 */
export interface MemoryStore {
  /** Stores a new item (its id and `createdAt` are the store's) and returns it as stored. */
  put(memory: NewMemory): Promise<MemoryItem>;
  /** The best `k` items of the scope for `query`, best first; equal scores oldest first. */
  search(query: MemorySearch): Promise<MemoryHit[]>;
  /** One page of the scope's items, oldest first; `nextCursor` is absent on the last page. */
  list(query: MemoryList): Promise<{ items: MemoryItem[]; nextCursor?: string }>;
  /** The item of `scope` with that id; `undefined` for an id of another scope, or none. */
  get(scope: MemoryScope, id: string): Promise<MemoryItem | undefined>;
  /** Deletes one item of `scope`; `false` when there was none (an id of another scope deletes nothing). */
  delete(scope: MemoryScope, id: string): Promise<boolean>;
  /** Deletes every item of one user (all kinds); returns how many. */
  forgetUser(user: { readonly appName: string; readonly userId: string }): Promise<number>;
}
