import type pg from 'pg';

/** `"schema".name`, the schema quoted as an SQL identifier (a `"` in it doubled). */
export const schemaTable = (schema: string, name: string): string => `"${schema.replace(/"/g, '""')}".${name}`;

/**
 * Runs a `CREATE TABLE IF NOT EXISTS`: processes that create it at once race, and the loser fails on
 * the catalog's unique index (23505) although the table exists, so that error is not one.
 */
export async function createTableIfMissing(pool: pg.Pool, sql: string): Promise<void> {
  try {
    await pool.query(sql);
  } catch (error) {
    if ((error as { code?: string }).code !== '23505') throw error;
  }
}
