import { watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { FileSessionStore, type Session, type SessionKey, type SessionStore } from '@replan/core';

type Listener = (version: number) => void;

export interface SessionChangesOptions {
  /** How often sessions someone watches are re-read when nothing signals a change (default 1000 ms; 5000 ms for a file store, whose files are watched). */
  readonly pollMs?: number;
}

interface Watched {
  readonly key: SessionKey;
  readonly listeners: Set<Listener>;
  version: number;
}

const keyString = (key: SessionKey) => JSON.stringify([key.appName, key.userId, key.id]);

/**
 * Tells listeners when a session's stored version changes. Signals: runs the studio started
 * (`notify`, in process, at once), file system events for a `FileSessionStore` (the sessions
 * directory, debounced), and a gentle re-read of the watched sessions for stores that cannot
 * signal (in-memory written by another runner, PostgreSQL: the store has no LISTEN/NOTIFY).
 */
export class SessionChanges {
  private readonly watched = new Map<string, Watched>();
  private readonly pollMs: number;
  private poller: NodeJS.Timeout | undefined;
  private fsWatcher: FSWatcher | undefined;
  private debounce: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly store: SessionStore,
    options: SessionChangesOptions = {},
    /** Gets each changed session before the listeners hear of it (the reader keeps it). */
    private readonly onChanged: (session: Session) => void = () => undefined,
  ) {
    const isFile = store instanceof FileSessionStore;
    this.pollMs = options.pollMs ?? (isFile ? 5000 : 1000);
  }

  /** What signals changes for this store, for the page to say. */
  get mode(): string {
    return this.store instanceof FileSessionStore ? 'file watching' : 'in-process notices and re-reads every second';
  }

  subscribe(key: SessionKey, version: number, listener: Listener): () => void {
    const id = keyString(key);
    let entry = this.watched.get(id);
    if (!entry) {
      entry = { key, listeners: new Set(), version };
      this.watched.set(id, entry);
    }
    entry.listeners.add(listener);
    this.start();
    return () => {
      entry.listeners.delete(listener);
      if (!entry.listeners.size) this.watched.delete(id);
      if (!this.watched.size) this.stop();
    };
  }

  /** Something wrote to the store (e.g. a run the studio started): check soon. */
  notify(): void {
    if (this.debounce) return;
    this.debounce = setTimeout(() => {
      this.debounce = undefined;
      void this.check();
    }, 60);
  }

  close(): void {
    this.watched.clear();
    this.stop();
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = undefined;
  }

  private start(): void {
    if (this.poller) return;
    this.poller = setInterval(() => void this.check(), this.pollMs);
    this.poller.unref();
    if (this.store instanceof FileSessionStore) {
      try {
        this.fsWatcher = watch(join(this.store.dir, 'sessions'), { recursive: true, persistent: false }, () => this.notify());
        this.fsWatcher.on('error', () => this.stopFsWatch());
      } catch {
        // No sessions directory yet, or no recursive watching here: the re-read covers it.
      }
    }
  }

  private stopFsWatch(): void {
    this.fsWatcher?.close();
    this.fsWatcher = undefined;
  }

  private stop(): void {
    if (this.poller) clearInterval(this.poller);
    this.poller = undefined;
    this.stopFsWatch();
  }

  private check(): Promise<void> {
    if (this.checking) {
      this.again = true;
      return this.checking;
    }
    this.checking = (async () => {
      do {
        this.again = false;
        for (const entry of [...this.watched.values()]) {
          const session = await this.store.get(entry.key).catch(() => undefined);
          const version = session?.version ?? 0;
          if (version === entry.version) continue;
          entry.version = version;
          if (session) this.onChanged(session);
          for (const listener of entry.listeners) listener(version);
        }
      } while (this.again);
    })().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }
}
