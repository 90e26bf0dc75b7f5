import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { APP, type StoreTarget } from './store-target.js';

/** How to damage a stored event: unreadable content, or a record of another schema version. */
export type Damage = 'garbage' | 'foreign-version';

/** The JSONL file of a file-store session (ids here are plain lower-case, kept as they are). */
export async function sessionFile(target: StoreTarget, sessionId: string, userId = 'u1'): Promise<string> {
  if (target.config.kind !== 'file') throw new Error('not a file store');
  const dir = join(target.config.dir, 'sessions', APP, userId);
  const name = (await readdir(dir)).find((n) => n === `${sessionId}.jsonl`);
  if (!name) throw new Error(`no file for session ${sessionId} in ${dir}`);
  return join(dir, name);
}

/** Damages one stored event in place, behind the store's back. */
export async function damageEvent(target: StoreTarget, sessionId: string, eventId: string, damage: Damage): Promise<void> {
  if (target.config.kind === 'file') {
    const file = await sessionFile(target, sessionId);
    const lines = (await readFile(file, 'utf8')).split('\n');
    const index = lines.findIndex((l) => l.includes(`"eventId":${JSON.stringify(eventId)}`));
    if (index < 0) throw new Error(`event ${eventId} not in ${file}`);
    const line = lines[index] as string;
    lines[index] =
      damage === 'garbage'
        ? `${line.slice(0, line.indexOf(',"event":') + 12)}#garbage#`
        : JSON.stringify({ ...(JSON.parse(line) as object), schemaVersion: 99 });
    await writeFile(file, lines.join('\n'));
    return;
  }
  const sql = new pg.Client({ connectionString: target.config.connectionString });
  await sql.connect();
  try {
    const set = damage === 'garbage' ? `event = '{"id": 5, "timestamp": "soon"}'` : 'schema_version = 99';
    const { rowCount } = await sql.query(
      `UPDATE "${target.config.schema}".replan_events SET ${set} WHERE session_id = $1 AND event_id = $2`,
      [sessionId, eventId],
    );
    if (rowCount !== 1) throw new Error(`event ${eventId} not found in PostgreSQL`);
  } finally {
    await sql.end();
  }
}
