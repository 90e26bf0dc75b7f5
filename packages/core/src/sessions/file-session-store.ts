import { open, unlink, type FileHandle } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import type { AgentEvent } from '../events/agent-event.js';
import { ConfigurationError, ReplanError } from '../errors/replan-error.js';
import { SessionExistsError, SessionStoreError } from '../errors/session-errors.js';
import { deleteSessionFile } from './file/delete-session-file.js';
import { errorCode, createFileExclusive, statOf } from './file/durable-fs.js';
import { FileLayout } from './file/file-names.js';
import type { LockOptions } from './file/file-lock.js';
import { readSessionLog } from './file/log-state.js';
import { addPendingWrites, readScopeState, type CommitCheck } from './file/scope-state-file.js';
import { encodeEventLines, encodeHeader, type LoadedLog } from './file/session-log-format.js';
import { SessionWriter } from './file/session-writer.js';
import { FileLeases } from './file/lease-file.js';
import { FileBlobs } from './file/blob-files.js';
import { listSessionFiles } from './file/list-session-files.js';
import { type BlobLimits, resolveBlobLimits } from './blobs/blob-limits.js';
import type { ExtractedBlobs } from './blobs/extract-blobs.js';
import {
  assertLeaseOwner,
  assertLeaseTtl,
  assertSessionLease,
  type LeaseHolder,
  type LeaseOptions,
  type SessionLease,
} from './session-lease.js';
import {
  logCommitCheck,
  newCreateId,
  pendingWritesOf,
  settleCreation,
  sharedStateHooks,
  type ScopeFileRef,
} from './file/shared-state-writes.js';
import { foldSessionState } from './fold-state.js';
import { jsonStateDelta } from './json-state.js';
import { assertSessionKey, assertUserKey } from './session-key-rules.js';
import type { Session, SessionKey } from './session.js';
import type { AppendOptions, CreateSessionInput, ListSessionsInput, SessionPage, SessionStore } from './session-store.js';
import { splitStateDelta } from './state-scope.js';
import { assertExpectedVersion, assertPageLimit, eventsForStorage } from './stored-event.js';

export interface FileSessionStoreOptions extends BlobLimits {
  /** The directory that holds every session (created when missing). */
  readonly dir: string;
  /** How long a writer waits for another process's append to the same session (default 10 s). */
  readonly lockTimeoutMs?: number;
  /**
   * A lock older than this is taken as left by a crashed writer on another host (default 30 s).
   * On this host a lock is broken as soon as its process is gone.
   */
  readonly staleLockMs?: number;
}

/** Writers kept for sessions this store touched; idle ones beyond this many are dropped. */
const MAX_IDLE_WRITERS = 256;

/**
 * Sessions as files: one append-only JSONL log per session, the embedded durable default.
 *
 * Layout under `dir`: `sessions/<app>/<user>/<id>.jsonl` (a header line with the key, creation
 * time and initial state, then one line per event), `sessions/<app>/<user>/<id>.blobs/<sha256>`
 * (the bytes of its images and files, flushed before the event naming them; deleted with it),
 * `app-state/<app>.json` and `user-state/<app>/<user>.json`. Names are encoded, so any id is safe.
 *
 * Guarantees (docs/session-stores.md): an append is one O_APPEND write, flushed (`fdatasync`)
 * before it returns, and never rewrites or cuts earlier bytes; appends that arrive while one is
 * being flushed are committed together (group commit). `create` makes the new file, its name and
 * its first events durable in one flush (on Linux; elsewhere the directory is flushed too). Lease
 * files are replaced atomically but not flushed (a lease a power loss takes back belonged to a
 * holder that died with the machine), and lease changes use the lock a recent append still holds.
 * A one-turn run makes 3 flushes: creation, answer, end. A crash mid-append leaves a torn tail
 * that readers skip. Writers in any number of processes take a per-session lock file (a lock
 * whose process is gone is broken), and every append is fenced — checked after its flush — so
 * exactly one of two appends at the same version wins, even if the lock was deleted, and the
 * other gets `ConcurrentUpdateError`. `app:`/`user:` state counts only once the event carrying
 * it is committed, so a failed append leaves no trace. A damaged log is refused by `get` and
 * `appendEvents` with `SessionCorruptError`, and reported by `list`.
 */
export class FileSessionStore implements SessionStore {
  private readonly layout: FileLayout;
  private readonly lock: LockOptions;
  private readonly writers = new Map<string, SessionWriter>();
  private readonly leases: FileLeases;
  private readonly blobs: FileBlobs;

  constructor(options: FileSessionStoreOptions) {
    if (typeof options?.dir !== 'string' || options.dir === '')
      throw new ConfigurationError('FileSessionStore needs a directory: new FileSessionStore({ dir: "./sessions" }).');
    this.layout = new FileLayout(resolve(options.dir));
    this.lock = { timeoutMs: options.lockTimeoutMs ?? 10_000, staleMs: options.staleLockMs ?? 30_000 };
    this.leases = new FileLeases(
      this.layout,
      (key, change) => this.writerFor(key).exclusive(change),
      (path) => this.relative(path),
    );
    this.blobs = new FileBlobs(this.layout, resolveBlobLimits('FileSessionStore', options), (path) => this.relative(path));
  }

  /** The absolute directory this store writes to. */
  get dir(): string {
    return this.layout.dir;
  }

  async create(input: CreateSessionInput, events: readonly AgentEvent[] = []): Promise<Session> {
    assertSessionKey(input);
    const key: SessionKey = { appName: input.appName, userId: input.userId, id: input.id };
    return this.io('create', key, async () => {
      const path = this.layout.sessionFile(key);
      const onPath = await statOf(path);
      if (onPath?.size === 0) await this.removeCutShort(key, path);
      else if (onPath) throw new SessionExistsError(key.id);
      const found = this.blobs.extract(key, eventsForStorage(events));
      const clean = found.events;
      await this.blobs.put(key, found);
      const initial = splitStateDelta(jsonStateDelta(input.state));
      const createId = newCreateId();
      // Encoded first: a value JSON cannot hold fails here, before anything is written.
      const data = Buffer.from(encodeHeader(key, Date.now(), initial.session, createId) + encodeEventLines(clean, 0));
      const writes = pendingWritesOf(key, [
        { delta: { ...initial.app, ...initial.user }, seq: 0, eventId: createId },
        ...clean.map((e, i) => ({ delta: e.actions?.stateDelta, seq: i + 1, eventId: e.id })),
      ]);
      const [app, user] = this.scopeFiles(key);
      await addPendingWrites(app.path, app.file, writes.app, this.lock);
      await addPendingWrites(user.path, user.file, writes.user, this.lock);
      let created = false;
      try {
        created = await createFileExclusive(path, data, { oneFlush: true });
      } finally {
        await settleCreation(key, writes, created, { app, user, lock: this.lock, check: this.commitCheck() });
      }
      if (!created) throw new SessionExistsError(key.id);
      const session = await this.get(key);
      if (!session) throw new SessionStoreError(`Session "${key.id}" vanished right after it was created in ${this.dir}.`);
      return session;
    });
  }

  async get(key: SessionKey): Promise<Session | undefined> {
    assertSessionKey(key);
    return this.io('read', key, async () => {
      const path = this.layout.sessionFile(key);
      const log = await this.load(path, key, true);
      if (!log) return undefined;
      const own = foldSessionState({ ...log.header.state }, log.events);
      const check = this.commitCheck();
      const [app, user] = this.scopeFiles(key);
      const [appState, userState] = await Promise.all([
        readScopeState(app.path, key.id, app.file, check),
        readScopeState(user.path, key.id, user.file, check),
      ]);
      return { ...key, state: { ...appState, ...userState, ...own }, events: log.events, version: log.version };
    });
  }

  async list(input: ListSessionsInput): Promise<SessionPage> {
    assertUserKey(input);
    assertPageLimit(input.limit);
    const key = { appName: input.appName, userId: input.userId, id: '' };
    return this.io('list', key, () => listSessionFiles(this.layout, input, (path) => this.relative(path)));
  }

  async delete(key: SessionKey): Promise<void> {
    assertSessionKey(key);
    await this.io('delete', key, async () => {
      const path = this.layout.sessionFile(key);
      const writer = this.writers.get(path);
      if (writer) {
        await writer.close();
        this.writers.delete(path);
      }
      await deleteSessionFile(path, key, this.relative(path), this.lock, () => this.blobs.remove(key));
    });
  }

  async appendEvents(
    key: SessionKey,
    events: readonly AgentEvent[],
    { expectedVersion, lease }: AppendOptions,
  ): Promise<{ version: number }> {
    assertSessionKey(key);
    assertExpectedVersion(expectedVersion);
    if (lease !== undefined) assertSessionLease(lease);
    return this.io('append to', key, async () => {
      // Sizes and base64 are checked now; the bytes are written by the writer, once the append passed its checks.
      const found = this.blobs.extract(key, eventsForStorage(events));
      const prepare = found.blobs.length || found.named.size ? () => this.putBlobs(key, found) : undefined;
      return this.writerFor(key).append(found.events, expectedVersion, lease, prepare);
    });
  }

  /** The bytes of blob `id` of the session (see `SessionStore.readBlob`), checked against their SHA-256. */
  async readBlob(key: SessionKey, id: string): Promise<Uint8Array> {
    assertSessionKey(key);
    return this.io('read a blob of', key, () => this.blobs.read(key, id));
  }

  /** Leases for one machine: see `FileLeases` (the process that took a lease on this host must be alive). */
  async acquireLease(key: SessionKey, options: LeaseOptions): Promise<SessionLease> {
    assertSessionKey(key);
    assertLeaseOwner(options?.owner);
    assertLeaseTtl(options.ttlMs);
    return this.io('lease', key, () => this.leases.acquire(key, options));
  }

  async renewLease(key: SessionKey, lease: SessionLease, ttlMs: number): Promise<SessionLease> {
    assertSessionKey(key);
    assertSessionLease(lease);
    assertLeaseTtl(ttlMs);
    return this.io('renew the lease of', key, () => this.leases.renew(key, lease, ttlMs));
  }

  async releaseLease(key: SessionKey, lease: SessionLease): Promise<void> {
    assertSessionKey(key);
    assertSessionLease(lease);
    return this.io('release the lease of', key, () => this.leases.release(key, lease));
  }

  async leaseHolder(key: SessionKey): Promise<LeaseHolder | undefined> {
    assertSessionKey(key);
    return this.io('read the lease of', key, () => this.leases.holder(key));
  }

  /** Finishes pending appends and releases every lock and file handle this store holds. */
  async close(): Promise<void> {
    const writers = [...this.writers.values()];
    this.writers.clear();
    await Promise.all(writers.map((w) => w.close()));
  }

  private relative(path: string): string {
    return relative(this.dir, path);
  }

  private scopeFiles(key: SessionKey): [ScopeFileRef, ScopeFileRef] {
    const app = this.layout.appStateFile(key.appName);
    const user = this.layout.userStateFile(key.appName, key.userId);
    return [
      { path: app, file: this.relative(app) },
      { path: user, file: this.relative(user) },
    ];
  }

  private writerFor(key: SessionKey): SessionWriter {
    const path = this.layout.sessionFile(key);
    let writer = this.writers.get(path);
    if (!writer) {
      if (this.writers.size >= MAX_IDLE_WRITERS) for (const [p, w] of this.writers) if (w.idle) this.writers.delete(p);
      const [app, user] = this.scopeFiles(key);
      writer = new SessionWriter(path, this.relative(path), key, this.lock, {
        ...sharedStateHooks(key, app, user, this.lock, this.commitCheck()),
        checkLease: (lease) => this.leases.assertCurrent(key, lease),
      });
      this.writers.set(path, writer);
    }
    return writer;
  }

  /** Writes an append's blobs, holding the session's lock; the undo removes those it created. */
  private async putBlobs(key: SessionKey, found: ExtractedBlobs): Promise<() => Promise<void>> {
    const created = await this.blobs.put(key, found);
    return () => this.blobs.discard(key, created);
  }

  /** Reads and decodes a session file (`undefined` when absent); tells its writer what it saw. */
  private async load(path: string, key: SessionKey, observe: boolean): Promise<LoadedLog | undefined> {
    let fh: FileHandle;
    try {
      fh = await open(path, 'r');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return undefined;
      throw error;
    }
    try {
      const info = await fh.stat();
      if (info.size === 0) return undefined; // a creation cut short (see removeCutShort): no session
      const { log, state } = await readSessionLog(fh, info, key, this.relative(path));
      if (observe && state.size === info.size) this.writerFor(key).observe(state);
      return log;
    } finally {
      await fh.close();
    }
  }

  /**
   * Removes an empty session file, under the session's lock. No live writer leaves one (a
   * session's file is linked into place whole); a power loss between a creation's link and its
   * flush can (docs/session-stores.md), and that creation never returned: the session does not
   * exist, and its id may be created again.
   */
  private async removeCutShort(key: SessionKey, path: string): Promise<void> {
    await this.writerFor(key).exclusive(async () => {
      if ((await statOf(path))?.size === 0) await unlink(path);
    });
  }

  /** Whether the event behind a pending shared-state write is committed in its session's log. */
  private commitCheck(): CommitCheck {
    return logCommitCheck(
      (session) => this.layout.sessionFile(session),
      (path, session) => this.load(path, session, false),
    );
  }

  /** Runs a file operation; I/O failures become `SessionStoreError`, replan errors pass through. */
  private async io<T>(what: string, key: SessionKey, body: () => Promise<T>): Promise<T> {
    try {
      return await body();
    } catch (error) {
      if (error instanceof ReplanError || error instanceof TypeError) throw error;
      throw new SessionStoreError(
        `Could not ${what} session "${key.id}" in ${this.dir}: ${(error as Error).message}. ` +
          'Check that the directory exists, is writable and has free space.',
        { cause: error },
      );
    }
  }
}
