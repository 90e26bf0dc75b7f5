import { open, readdir, readFile, stat, unlink, type FileHandle } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { AgentEvent } from '../events/agent-event.js';
import { ConfigurationError, ReplanError } from '../errors/replan-error.js';
import {
  ConcurrentUpdateError,
  SessionExistsError,
  SessionNotFoundError,
  SessionStoreError,
} from '../errors/session-errors.js';
import { errorCode, createFileExclusive, readFirstLine, syncDir, writeAll } from './file/durable-fs.js';
import { FileLayout, SESSION_FILE_SUFFIX } from './file/file-names.js';
import { acquireLock, LockTimeout, type HeldLock, type LockOptions } from './file/file-lock.js';
import { mergeScopeState, readScopeState } from './file/scope-state-file.js';
import { decodeHeader, decodeSessionLog, encodeEventLines, encodeHeader, findCommittedTail } from './file/session-log-format.js';
import { foldSessionState } from './fold-state.js';
import { jsonStateDelta } from './json-state.js';
import { assertSessionKey, assertUserKey } from './session-key-rules.js';
import type { Session, SessionKey, SessionSummary } from './session.js';
import { pageSummaries } from './session-paging.js';
import type { AppendOptions, CreateSessionInput, ListSessionsInput, SessionPage, SessionStore } from './session-store.js';
import { splitStateDelta, type ScopedDelta } from './state-scope.js';
import { assertExpectedVersion, assertPageLimit, eventsForStorage } from './stored-event.js';

export interface FileSessionStoreOptions {
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

/**
 * Sessions as files: one append-only JSONL log per session, the embedded durable default.
 *
 * Layout under `dir`: `sessions/<app>/<user>/<id>.jsonl` (a header line with the key, creation
 * time and initial state, then one line per event), `app-state/<app>.json` and
 * `user-state/<app>/<user>.json`. Names are encoded, so any id is safe.
 *
 * Guarantees: each append is one write at the end of the file, flushed (fsync) before it returns,
 * and never rewrites earlier bytes. A crash mid-append leaves a torn tail that loads ignore and
 * the next append cuts off. Writers in any number of processes take a per-session lock file
 * (O_EXCL; a lock left by a dead process is broken), so exactly one of two appends at the same
 * version wins and the other gets `ConcurrentUpdateError`. Nothing is cached: every read sees
 * what other processes wrote.
 */
export class FileSessionStore implements SessionStore {
  private readonly layout: FileLayout;
  private readonly lock: LockOptions;

  constructor(options: FileSessionStoreOptions) {
    if (typeof options?.dir !== 'string' || options.dir === '')
      throw new ConfigurationError('FileSessionStore needs a directory: new FileSessionStore({ dir: "./sessions" }).');
    this.layout = new FileLayout(resolve(options.dir));
    this.lock = { timeoutMs: options.lockTimeoutMs ?? 10_000, staleMs: options.staleLockMs ?? 30_000 };
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
      if (await exists(path)) throw new SessionExistsError(key.id);
      const clean = eventsForStorage(events);
      const initial = splitStateDelta(jsonStateDelta(input.state));
      const shared = sharedDeltas([initial, ...clean.map((e) => splitStateDelta(e.actions?.stateDelta))]);
      // Shared state first: a crash before the session exists then only repeats a state write.
      await this.mergeShared(key, shared);
      const data = encodeHeader(key, Date.now(), initial.session) + encodeEventLines(clean, 0);
      if (!(await createFileExclusive(path, Buffer.from(data)))) throw new SessionExistsError(key.id);
      const session = await this.get(key);
      if (!session) throw new SessionStoreError(`Session "${key.id}" vanished right after it was created in ${this.dir}.`);
      return session;
    });
  }

  async get(key: SessionKey): Promise<Session | undefined> {
    assertSessionKey(key);
    return this.io('read', key, async () => {
      let data: Buffer;
      try {
        data = await readFile(this.layout.sessionFile(key));
      } catch (error) {
        if (errorCode(error) === 'ENOENT') return undefined;
        throw error;
      }
      const { header, events } = decodeSessionLog(data, key);
      const own = foldSessionState({ ...header.state }, events);
      const [app, user] = await Promise.all([
        readScopeState(this.layout.appStateFile(key.appName), key.id),
        readScopeState(this.layout.userStateFile(key.appName, key.userId), key.id),
      ]);
      return { ...key, state: { ...app, ...user, ...own }, events, version: events.length };
    });
  }

  async list(input: ListSessionsInput): Promise<SessionPage> {
    assertUserKey(input);
    assertPageLimit(input.limit);
    const key = { appName: input.appName, userId: input.userId, id: '' };
    return this.io('list', key, async () => {
      const dir = this.layout.userSessionsDir(input.appName, input.userId);
      let names: string[];
      try {
        names = await readdir(dir);
      } catch (error) {
        if (errorCode(error) === 'ENOENT') return { sessions: [] };
        throw error;
      }
      const all: SessionSummary[] = [];
      for (const name of names) {
        if (!name.endsWith(SESSION_FILE_SUFFIX)) continue; // locks and temporary files
        const summary = await this.summaryOf(`${dir}/${name}`, input);
        if (summary) all.push(summary);
      }
      const page = pageSummaries(all, input.limit, input.cursor);
      // Versions only for the page: each costs a read of the file's last batch.
      const sessions: SessionSummary[] = [];
      for (const s of page.sessions) {
        const version = await this.versionOf(this.layout.sessionFile(s), s);
        if (version !== undefined) sessions.push({ ...s, version });
      }
      return page.nextCursor ? { sessions, nextCursor: page.nextCursor } : { sessions };
    });
  }

  async delete(key: SessionKey): Promise<void> {
    assertSessionKey(key);
    await this.io('delete', key, async () => {
      const path = this.layout.sessionFile(key);
      const held = await this.lockSession(path, key);
      if (!held) return; // no directory, so no session
      if (held instanceof LockTimeout) throw lockTimeoutError(held, 'delete', key);
      try {
        await unlink(path);
        await syncDir(dirname(path));
      } catch (error) {
        if (errorCode(error) !== 'ENOENT') throw error;
      } finally {
        await held.release();
      }
    });
  }

  async appendEvents(
    key: SessionKey,
    events: readonly AgentEvent[],
    { expectedVersion }: AppendOptions,
  ): Promise<{ version: number }> {
    assertSessionKey(key);
    assertExpectedVersion(expectedVersion);
    return this.io('append to', key, async () => {
      const path = this.layout.sessionFile(key);
      const held = await this.lockSession(path, key);
      if (!held) throw new SessionNotFoundError(key.appName, key.userId, key.id);
      if (held instanceof LockTimeout)
        throw new ConcurrentUpdateError(key.id, expectedVersion, (await this.versionOf(path, key)) ?? expectedVersion);
      try {
        const fh = await openForAppend(path, key);
        try {
          const size = (await fh.stat()).size;
          decodeHeader(await readFirstLine(fh), key);
          const tail = await findCommittedTail(fh, size, key);
          if (tail.version !== expectedVersion) throw new ConcurrentUpdateError(key.id, expectedVersion, tail.version);
          if (!events.length) return { version: tail.version };
          const clean = eventsForStorage(events);
          await this.mergeShared(key, sharedDeltas(clean.map((e) => splitStateDelta(e.actions?.stateDelta))));
          if (tail.end < size) await fh.truncate(tail.end); // drop a batch torn by a crash
          await writeAll(fh, Buffer.from(encodeEventLines(clean, tail.version)), tail.end);
          await fh.datasync();
          return { version: tail.version + clean.length };
        } finally {
          await fh.close();
        }
      } finally {
        await held.release();
      }
    });
  }

  /** Nothing to release: no handle stays open between calls. */
  async close(): Promise<void> {}

  /** The session lock, or `undefined` when the user's directory (hence the session) does not exist. */
  private async lockSession(path: string, key: SessionKey): Promise<HeldLock | LockTimeout | undefined> {
    try {
      return await acquireLock(`${path}.lock`, this.lock);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return undefined;
      throw new SessionStoreError(`Could not lock session "${key.id}" at ${path}.lock: ${(error as Error).message}.`, {
        cause: error,
      });
    }
  }

  private async mergeShared(key: SessionKey, shared: ScopedDelta): Promise<void> {
    await mergeScopeState(this.layout.appStateFile(key.appName), shared.app, key.id, this.lock);
    await mergeScopeState(this.layout.userStateFile(key.appName, key.userId), shared.user, key.id, this.lock);
  }

  private async summaryOf(path: string, input: ListSessionsInput): Promise<SessionSummary | undefined> {
    let fh: FileHandle;
    try {
      fh = await open(path, 'r');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return undefined; // deleted meanwhile
      throw error;
    }
    try {
      const [line, info] = await Promise.all([readFirstLine(fh), fh.stat()]);
      let id = '';
      try {
        id = String((JSON.parse(line ?? '') as { id?: unknown }).id);
      } catch {
        // decodeHeader below reports the broken header.
      }
      const header = decodeHeader(line, { appName: input.appName, userId: input.userId, id });
      return { ...input, id: header.id, version: 0, createdAt: header.createdAt, updatedAt: Math.floor(info.mtimeMs) };
    } finally {
      await fh.close();
    }
  }

  private async versionOf(path: string, key: SessionKey): Promise<number | undefined> {
    let fh: FileHandle;
    try {
      fh = await open(path, 'r');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return undefined;
      throw error;
    }
    try {
      return (await findCommittedTail(fh, (await fh.stat()).size, key)).version;
    } finally {
      await fh.close();
    }
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


/** The `app:` and `user:` parts of several deltas, merged in order. */
function sharedDeltas(deltas: readonly ScopedDelta[]): ScopedDelta {
  const out: ScopedDelta = { app: {}, user: {}, session: {} };
  for (const d of deltas) {
    Object.assign(out.app, d.app);
    Object.assign(out.user, d.user);
  }
  return out;
}

function lockTimeoutError(held: LockTimeout, what: string, key: SessionKey): SessionStoreError {
  return new SessionStoreError(
    `Could not ${what} session "${key.id}": another writer holds ${held.lockPath} (${held.holder}). ` +
      'Retry later; if no replan process is running, delete that lock file.',
  );
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return false;
    throw error;
  }
}

async function openForAppend(path: string, key: SessionKey): Promise<FileHandle> {
  try {
    return await open(path, 'r+');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') throw new SessionNotFoundError(key.appName, key.userId, key.id);
    throw error;
  }
}
