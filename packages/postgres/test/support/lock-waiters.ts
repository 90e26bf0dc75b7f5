import type pg from 'pg';

/** Waits until at least `n` statements of the database wait for a lock (a row another connection holds). */
export async function lockWaiters(sql: pg.Pool, n = 1): Promise<void> {
  for (;;) {
    const { rows } = await sql.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'`);
    if (rows[0].n >= n) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
