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

export interface MemorySearch {
  readonly scope: MemoryScope;
  readonly query: string;
  /** How many results at most (default 5). */
  readonly k?: number;
  /** Only these kinds (default all). */
  readonly kinds?: readonly MemoryKind[];
}

/** One search hit: higher `score` is closer; scores compare within one search only. */
export interface MemoryHit {
  readonly item: MemoryItem;
  readonly score: number;
}

export interface MemoryList {
  readonly scope: MemoryScope;
  readonly kinds?: readonly MemoryKind[];
  readonly limit?: number;
  /** From a previous page's `nextCursor`. */
  readonly cursor?: string;
}

/** Turns texts into vectors for semantic search; one vector per text, all of one length. */
export type Embedder = (texts: readonly string[]) => Promise<number[][]>;

/**
 * Long-term memory across sessions. A scope is exact: a search in `{ appName, userId: 'a' }` never
 * sees user `b`'s items, nor app-scope items (search both scopes to see both).
 */
export interface MemoryStore {
  put(memory: NewMemory): Promise<MemoryItem>;
  search(query: MemorySearch): Promise<MemoryHit[]>;
  list(query: MemoryList): Promise<{ items: MemoryItem[]; nextCursor?: string }>;
  get(scope: MemoryScope, id: string): Promise<MemoryItem | undefined>;
  /** Deletes one item of `scope`; `false` when there was none. */
  delete(scope: MemoryScope, id: string): Promise<boolean>;
  /** Deletes every item of one user (all kinds); returns how many. */
  forgetUser(user: { readonly appName: string; readonly userId: string }): Promise<number>;
}
