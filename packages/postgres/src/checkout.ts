import type pg from 'pg';
import type { ConnectionSettings } from './connection-settings.js';
import { classifyFault } from './pg-faults.js';

/**
 * Runs `body` with a client checked out of `pool`, listening for the client's `'error'` events the
 * whole time it is out. node-postgres emits `'error'` on a checked-out client whose connection
 * the server drops, and the pool listens only to idle clients: without this listener the event is
 * unhandled and kills the process. A client that failed (an `'error'` event, or a query that
 * failed for the connection) goes back with `release(error)`, so the pool discards it instead of
 * handing it out again (`body` can ask for that too, through `discard`). Works the same on a pool the caller owns: nothing is installed on the pool.
 * With `settings`, a connection gets them before its first use by the caller.
 */
export async function withClient<T>(
  pool: pg.Pool,
  body: (client: pg.PoolClient, discard: (error: Error) => void) => Promise<T>,
  settings?: ConnectionSettings,
): Promise<T> {
  const client = await pool.connect();
  let fault: Error | undefined;
  const onError = (error: Error) => {
    fault ??= error;
  };
  client.on('error', onError);
  try {
    await settings?.apply(client);
    return await body(client, onError);
  } catch (error) {
    if (classifyFault(error) === 'connection') fault ??= error as Error;
    throw error;
  } finally {
    client.removeListener('error', onError);
    client.release(fault);
  }
}
