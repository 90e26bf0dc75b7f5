import type pg from 'pg';
import type { SessionKey } from '@replan/core';
import { assertSessionKey } from '@replan/core/store-kit';
import { NotifyListener } from './notify-listener.js';
import type { Tables } from './sql-names.js';
import type { PostgresSessionStoreOptions } from './store-options.js';

const keyOf = (key: SessionKey) => JSON.stringify([key.appName, key.userId, key.id]);

/**
 * `watchSession` of a `PostgresSessionStore`: one LISTEN connection (checked out of the store's
 * pool while anyone watches) on the schema's change channel, routing each NOTIFY to the watchers
 * of its session. After the connection came back, every watcher is called: notifications sent
 * meanwhile were lost. `notify`: this store's appends NOTIFY (`notifyAppends`).
 */
export class SessionWatchers {
  private readonly watchers = new Map<string, Set<() => void>>();
  private listener: NotifyListener | undefined;

  private readonly channel: string;
  readonly notify: boolean;

  constructor(
    private readonly pool: pg.Pool,
    tables: Tables,
    options: Pick<PostgresSessionStoreOptions, 'notifyAppends'>,
    private readonly onError: (error: Error) => void = (error) =>
      console.warn(`PostgresSessionStore.watchSession: ${error.message}; retrying`),
  ) {
    this.channel = tables.changeChannel;
    this.notify = options.notifyAppends ?? false;
  }

  watch(key: SessionKey, onChange: () => void): () => void {
    assertSessionKey(key);
    const id = keyOf(key);
    let set = this.watchers.get(id);
    if (!set) {
      set = new Set();
      this.watchers.set(id, set);
    }
    set.add(onChange);
    if (!this.listener) {
      this.listener = new NotifyListener({
        pool: this.pool,
        channels: [this.channel],
        onNotify: (_channel, payload) => this.wake(payload),
        onReconnect: () => this.wakeAll(),
        onError: this.onError,
      });
      // Until LISTEN is in effect an append may go unnoticed: wake everyone once it is.
      this.listener.ready().then(
        () => this.wakeAll(),
        (error: unknown) => this.onError(error as Error),
      );
    }
    return () => {
      set.delete(onChange);
      if (!set.size) this.watchers.delete(id);
      if (!this.watchers.size) void this.close();
    };
  }

  async close(): Promise<void> {
    const listener = this.listener;
    this.listener = undefined;
    await listener?.close();
  }

  private wake(payload: string | undefined): void {
    let id: string;
    try {
      // PostgreSQL writes its JSON with spaces: read it back to the key's own form.
      id = JSON.stringify(JSON.parse(payload ?? ''));
    } catch {
      return;
    }
    for (const onChange of [...(this.watchers.get(id) ?? [])]) onChange();
  }

  private wakeAll(): void {
    for (const set of [...this.watchers.values()]) for (const onChange of [...set]) onChange();
  }
}
