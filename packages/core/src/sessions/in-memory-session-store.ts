import type { AgentEvent } from '../events/agent-event.js';
import { ConcurrentUpdateError, SessionCorruptError, SessionExistsError, SessionNotFoundError } from '../errors/session-errors.js';
import { type BlobLimits, type ResolvedBlobLimits, resolveBlobLimits } from './blobs/blob-limits.js';
import { assertBlobId } from './blobs/blob-id.js';
import { blobsToStore, extractBlobs } from './blobs/extract-blobs.js';
import type { Session, SessionKey } from './session.js';
import type { AppendOptions, CreateSessionInput, ListSessionsInput, SessionPage, SessionStore } from './session-store.js';
import { pageSummaries } from './session-paging.js';
import {
  acquireFrom,
  assertAppendLease,
  assertLeaseOwner,
  assertLeaseTtl,
  assertSessionLease,
  isCurrentLease,
  liveHolderOf,
  renewFrom,
  type LeaseHolder,
  type LeaseOptions,
  type LeaseRecord,
  type SessionLease,
} from './session-lease.js';
import { applyStateActions } from './apply-state.js';
import { jsonStateDelta } from './json-state.js';
import { assertSessionKey, assertUserKey } from './session-key-rules.js';
import { assertExpectedVersion, assertPageLimit, eventsForStorage } from './stored-event.js';
import { splitStateDelta, stateScopeOf } from './state-scope.js';

interface StoredSession {
  readonly key: SessionKey;
  readonly state: Record<string, unknown>;
  readonly events: AgentEvent[];
  readonly createdAt: number;
  updatedAt: number;
  lease?: LeaseRecord;
  /** The bytes of its images and files, by blob id (SHA-256). */
  readonly blobs: Map<string, Buffer>;
}

/** Options of `InMemorySessionStore`: the blob size limits. */
export interface InMemorySessionStoreOptions extends BlobLimits {}

/** One map key per (app, user): JSON of the pair, which no two distinct pairs share (unlike joining with a separator). */
const userKeyOf = (k: { readonly appName: string; readonly userId: string }) => JSON.stringify([k.appName, k.userId]);

/**
 * Sessions in this process's memory: the default store, for tests and single-process apps.
 * Stored events are kept by reference and must not be mutated after appending.
 */
export class InMemorySessionStore implements SessionStore {
  /** Sessions by app, user and id: nested maps, so finding one builds no key string (it runs on every append). */
  private readonly sessions = new Map<string, Map<string, Map<string, StoredSession>>>();
  private readonly appState = new Map<string, Record<string, unknown>>();
  private readonly userState = new Map<string, Record<string, unknown>>();
  private readonly limits: ResolvedBlobLimits;

  /** Images and files appended with inline `data` are kept apart, in a map per session (see `readBlob`), within `options`' limits. */
  constructor(options: InMemorySessionStoreOptions = {}) {
    this.limits = resolveBlobLimits('InMemorySessionStore', options);
  }

  async create(input: CreateSessionInput, events: readonly AgentEvent[] = []): Promise<Session> {
    assertSessionKey(input);
    if (this.find(input)) throw new SessionExistsError(input.id);
    const state = jsonStateDelta(input.state);
    const now = Date.now();
    const stored: StoredSession = {
      key: { appName: input.appName, userId: input.userId, id: input.id },
      state: {},
      events: [],
      createdAt: now,
      updatedAt: now,
      blobs: new Map(),
    };
    const clean = this.withBlobsNow(stored, eventsForStorage(events)); // checked before anything is kept
    this.applyDelta(stored, state);
    this.pushEvents(stored, clean);
    let users = this.sessions.get(input.appName);
    if (!users) {
      users = new Map();
      this.sessions.set(input.appName, users);
    }
    let own = users.get(input.userId);
    if (!own) {
      own = new Map();
      users.set(input.userId, own);
    }
    own.set(input.id, stored);
    return this.view(stored);
  }

  async get(key: SessionKey): Promise<Session | undefined> {
    assertSessionKey(key);
    const stored = this.find(key);
    return stored && this.view(stored);
  }

  async list(input: ListSessionsInput): Promise<SessionPage> {
    assertUserKey(input);
    assertPageLimit(input.limit);
    const all = [];
    for (const s of this.sessions.get(input.appName)?.get(input.userId)?.values() ?? [])
      all.push({ ...s.key, version: s.events.length, createdAt: s.createdAt, updatedAt: s.updatedAt });
    return pageSummaries(all, input.limit, input.cursor);
  }

  async delete(key: SessionKey): Promise<void> {
    assertSessionKey(key);
    const users = this.sessions.get(key.appName);
    const own = users?.get(key.userId);
    if (!own?.delete(key.id) || own.size) return;
    users?.delete(key.userId);
    if (users?.size === 0) this.sessions.delete(key.appName);
  }

  async appendEvents(
    key: SessionKey,
    events: readonly AgentEvent[],
    { expectedVersion, lease }: AppendOptions,
  ): Promise<{ version: number }> {
    assertSessionKey(key);
    assertExpectedVersion(expectedVersion);
    if (lease !== undefined) assertSessionLease(lease);
    const stored = this.find(key);
    if (!stored) throw new SessionNotFoundError(key.appName, key.userId, key.id);
    if (lease) assertAppendLease(key.id, stored.lease, lease);
    if (stored.events.length !== expectedVersion) throw new ConcurrentUpdateError(key.id, expectedVersion, stored.events.length);
    // All checked before any is kept: the append is all-or-nothing. Blobs are checked without
    // waiting, so no other append can slip in between the version check and the write.
    const clean = this.withBlobsNow(stored, eventsForStorage(events));
    this.pushEvents(stored, clean);
    stored.updatedAt = Date.now();
    return { version: stored.events.length };
  }

  async acquireLease(key: SessionKey, options: LeaseOptions): Promise<SessionLease> {
    assertSessionKey(key);
    assertLeaseOwner(options?.owner);
    assertLeaseTtl(options.ttlMs);
    const stored = this.leased(key);
    const lease = acquireFrom(key.id, stored.lease ?? { token: 0 }, options, Date.now());
    stored.lease = { token: lease.token, holder: lease };
    return lease;
  }

  async renewLease(key: SessionKey, lease: SessionLease, ttlMs: number): Promise<SessionLease> {
    assertSessionKey(key);
    assertSessionLease(lease);
    assertLeaseTtl(ttlMs);
    const stored = this.leased(key);
    const renewed = renewFrom(key.id, stored.lease ?? { token: 0 }, lease, ttlMs, Date.now());
    stored.lease = { token: renewed.token, holder: renewed };
    return renewed;
  }

  async releaseLease(key: SessionKey, lease: SessionLease): Promise<void> {
    assertSessionKey(key);
    assertSessionLease(lease);
    const stored = this.find(key);
    if (stored?.lease && isCurrentLease(stored.lease, lease)) stored.lease = { token: stored.lease.token };
  }

  async leaseHolder(key: SessionKey): Promise<LeaseHolder | undefined> {
    assertSessionKey(key);
    return liveHolderOf(this.find(key)?.lease, Date.now());
  }

  /**
   * A copy of the bytes of blob `id` of the session (a caller writing to them cannot change the stored
   * blob); `SessionCorruptError` when the session holds none such, `InvalidArgumentError` for an id that is not one.
   */
  async readBlob(key: SessionKey, id: string): Promise<Uint8Array> {
    assertSessionKey(key);
    assertBlobId(id);
    const stored = this.leased(key);
    const bytes = stored.blobs.get(id);
    if (!bytes) throw new SessionCorruptError(key.id, `blob "${id}" is missing from the store`);
    return Uint8Array.from(bytes);
  }

  /** The events with their inline media moved into `stored.blobs` (limits and named blobs checked first). */
  private withBlobsNow(stored: StoredSession, events: AgentEvent[]): AgentEvent[] {
    const { id } = stored.key;
    const found = extractBlobs(id, events, this.limits);
    if (!found.blobs.length && !found.named.size) return found.events;
    const held = new Map([...stored.blobs].map(([blob, bytes]) => [blob, bytes.length]));
    for (const blob of blobsToStore(id, found, held, this.limits)) stored.blobs.set(blob.id, blob.bytes);
    return found.events;
  }

  private leased(key: SessionKey): StoredSession {
    const stored = this.find(key);
    if (!stored) throw new SessionNotFoundError(key.appName, key.userId, key.id);
    return stored;
  }

  private find(key: SessionKey): StoredSession | undefined {
    return this.sessions.get(key.appName)?.get(key.userId)?.get(key.id);
  }

  /** Keeps events already passed through `eventsForStorage`. */
  private pushEvents(stored: StoredSession, events: readonly AgentEvent[]): void {
    for (const clean of events) {
      stored.events.push(clean);
      this.applyDelta(stored, clean.actions?.stateDelta);
      if (clean.actions?.stateAppend)
        applyStateActions(stored.state, { stateAppend: clean.actions.stateAppend }, (k) => stateScopeOf(k) === 'session');
    }
  }

  private applyDelta(stored: StoredSession, delta: Readonly<Record<string, unknown>> | undefined): void {
    if (!delta) return;
    const scoped = splitStateDelta(delta);
    Object.assign(stored.state, scoped.session);
    if (Object.keys(scoped.app).length) this.scopeState(this.appState, stored.key.appName, scoped.app);
    if (Object.keys(scoped.user).length) this.scopeState(this.userState, userKeyOf(stored.key), scoped.user);
  }

  private scopeState(map: Map<string, Record<string, unknown>>, k: string, delta: Record<string, unknown>): void {
    const current = map.get(k) ?? {};
    Object.assign(current, delta);
    map.set(k, current);
  }

  private view(stored: StoredSession): Session {
    return {
      ...stored.key,
      state: {
        ...this.appState.get(stored.key.appName),
        ...this.userState.get(userKeyOf(stored.key)),
        ...stored.state,
      },
      events: stored.events.slice(),
      version: stored.events.length,
    };
  }
}
