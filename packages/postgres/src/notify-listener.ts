import type pg from 'pg';

export interface NotifyListenerOptions {
  readonly pool: pg.Pool;
  readonly channels: readonly string[];
  readonly onNotify: (channel: string, payload: string | undefined) => void;
  /** Called after the connection came back: notifications sent meanwhile were lost, so re-check. */
  readonly onReconnect: () => void;
  /** A background failure (the connection dropped, a reconnect failed); the listener keeps trying. */
  readonly onError: (error: Error) => void;
}

/**
 * One connection kept checked out of the pool, LISTENing on a few channels. When it drops, it
 * reconnects in the background (backing off up to 5 s) and calls `onReconnect`, because NOTIFY is
 * fire-and-forget: whoever relies on it must re-read the rows after a gap.
 */
export class NotifyListener {
  private client: pg.PoolClient | undefined;
  private connecting: Promise<void> | undefined;
  private closed = false;
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: NotifyListenerOptions) {}

  /** Resolves once LISTEN is in effect (connecting now if needed); rejects when that fails. */
  ready(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The listener is closed.'));
    if (this.client) return Promise.resolve();
    this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = undefined;
    // Destroyed rather than returned: a pooled connection must not keep LISTENing for someone else.
    client?.release(true);
  }

  private async connect(): Promise<void> {
    const client = await this.options.pool.connect();
    const onError = (error: Error) => this.dropped(client, error);
    client.on('error', onError);
    client.on('notification', (message) => {
      if (this.client === client) this.options.onNotify(message.channel, message.payload);
    });
    try {
      for (const channel of this.options.channels) await client.query(`LISTEN "${channel}"`);
    } catch (error) {
      client.off('error', onError);
      client.release(true);
      throw error;
    }
    if (this.closed) {
      client.release(true);
      return;
    }
    this.client = client;
  }

  private dropped(client: pg.PoolClient, error: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.release(true);
    this.options.onError(error);
    this.reconnect(250);
  }

  private reconnect(delayMs: number): void {
    if (this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.ready().then(
        () => this.options.onReconnect(),
        (error: unknown) => {
          this.options.onError(error as Error);
          this.reconnect(Math.min(delayMs * 2, 5_000));
        },
      );
    }, delayMs);
    this.retryTimer.unref();
  }
}
