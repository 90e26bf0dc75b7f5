import { watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { FileSessionStore, type SessionKey, type SessionStore } from '@replan/core';

/**
 * Tells a resumed stream that a session may have changed: call `onChange` whenever it might have
 * (e.g. from a PostgreSQL `LISTEN`); returns how to stop. Extra calls are harmless: the stream
 * re-reads the log and sends only what is new.
 */
export type SessionChangeSubscription = (key: SessionKey, onChange: () => void) => () => void;

/** A store that tells of appends itself, e.g. `PostgresSessionStore` (LISTEN/NOTIFY, with `notifyAppends`). */
interface WatchableStore {
  watchSession(key: SessionKey, onChange: () => void): () => void;
}

const local = new Map<string, Set<() => void>>();
const keyOf = (key: SessionKey) => JSON.stringify([key.appName, key.userId, key.id]);

/** In this process: a live stream saw the session's run store an event (wakes resumed streams at once). */
export function notifySessionChanged(key: SessionKey): void {
  const listeners = local.get(keyOf(key));
  if (listeners) for (const listener of [...listeners]) listener();
}

function listenLocally(key: SessionKey, onChange: () => void): () => void {
  const id = keyOf(key);
  let listeners = local.get(id);
  if (!listeners) {
    listeners = new Set();
    local.set(id, listeners);
  }
  listeners.add(onChange);
  return () => {
    listeners.delete(onChange);
    if (!listeners.size) local.delete(id);
  };
}

/** A file store's session file, watched: a write by any process on this machine wakes the stream. */
function watchFileStore(store: FileSessionStore, onChange: () => void): () => void {
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(join(store.dir, 'sessions'), { recursive: true, persistent: false }, () => onChange());
    watcher.on('error', () => watcher?.close());
  } catch {
    // No sessions directory or no recursive watching here: the re-read every pollMs covers it.
  }
  return () => watcher?.close();
}

/**
 * Waits for the next sign that a session changed: a live stream of this process, the file store's
 * file watcher, the store's own `watchSession` (PostgreSQL), the caller's subscription, or at most `pollMs` (a re-read for stores that cannot
 * signal, and for what another machine wrote).
 */
export class SessionChangeWaiter {
  private pending = false;
  private wakeUp: (() => void) | undefined;
  private readonly stops: (() => void)[] = [];

  constructor(
    store: SessionStore,
    key: SessionKey,
    private readonly pollMs: number,
    subscribe?: SessionChangeSubscription,
  ) {
    const onChange = () => {
      this.pending = true;
      this.wakeUp?.();
    };
    this.stops.push(listenLocally(key, onChange));
    if (store instanceof FileSessionStore) this.stops.push(watchFileStore(store, onChange));
    const watching = store as SessionStore & Partial<WatchableStore>;
    if (typeof watching.watchSession === 'function') this.stops.push(watching.watchSession(key, onChange));
    if (subscribe) this.stops.push(subscribe(key, onChange));
  }

  /** Resolves on the next change (at once if one came since the last wait), after `pollMs` (or `withinMs`), or when `signal` aborts. */
  async wait(signal: AbortSignal, withinMs = this.pollMs): Promise<void> {
    if (this.pending || signal.aborted) {
      this.pending = false;
      return;
    }
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(done, Math.min(withinMs, this.pollMs));
      signal.addEventListener('abort', done, { once: true });
      this.wakeUp = done;
    });
    this.pending = false;
  }

  close(): void {
    for (const stop of this.stops.splice(0)) stop();
    this.wakeUp?.();
  }
}
