import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect } from 'vitest';
import { z } from 'zod';
import { ReActAgent, Runner, SessionCorruptError, imageFromBytes, tool } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { MIGRATIONS, PostgresSessionStore } from '@replan/postgres';
import { Tables } from '../src/sql-names.js';
import { useTestPostgres } from './support/use-test-postgres.js';

const db = useTestPostgres();
const it = db.it;
const resumer = fileURLToPath(new URL('./support/media-resume.ts', import.meta.url));
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Deterministic bytes that start like a PNG. */
function pngBytes(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  let x = 7;
  for (let i = 0; i < size; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    bytes[i] = x >>> 24;
  }
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
  return bytes;
}

function resumeElsewhere(
  schema: string,
  sessionId: string,
  interruptId: string,
): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', resumer, db.connectionString, schema, sessionId, interruptId], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, err })));
}

describe('PostgresSessionStore blobs', () => {
  it('keeps a 2 MB image out of the events table, re-sends it from another process on resume, and deletes it with the session', async () => {
    const schema = db.freshSchema('media');
    const sql = new pg.Pool({ connectionString: db.connectionString, max: 2 });
    const store = new PostgresSessionStore({ pool: sql, schema });
    try {
      const bytes = pngBytes(2 * 1024 * 1024);
      const look = tool({
        name: 'look',
        description: 'looks closer',
        parameters: z.object({}),
        needsApproval: true,
        execute: () => 'looked',
      });
      const model = new ScriptedModel({ responses: [callTools({ name: 'look', args: {} })] });
      const runner = new Runner({ agent: new ReActAgent({ name: 'reader', model, tools: [look] }), appName: 'media', sessionStore: store });
      const run = await runner
        .run({ userId: 'u', sessionId: 'inv', input: [{ type: 'text', text: 'total?' }, imageFromBytes(bytes)] })
        .result();
      expect(run.status).toBe('interrupted');

      const events = await sql.query(`SELECT sum(octet_length(event::text))::int AS bytes FROM "${schema}".replan_events`);
      expect(events.rows[0].bytes).toBeLessThan(8_000);
      const blobs = await sql.query(`SELECT blob_id, media_type, size, bytes FROM "${schema}".replan_blobs`);
      expect(blobs.rows).toHaveLength(1);
      expect(blobs.rows[0]).toMatchObject({ blob_id: sha256(bytes), media_type: 'image/png', size: bytes.length });
      expect(sha256(blobs.rows[0].bytes)).toBe(sha256(bytes));
      expect(sha256(await store.readBlob({ appName: 'media', userId: 'u', id: 'inv' }, sha256(bytes)))).toBe(sha256(bytes));

      const child = await resumeElsewhere(schema, 'inv', run.interrupts[0]!.id);
      expect(child.code, child.err).toBe(0);
      expect(JSON.parse(child.out)).toEqual({ status: 'completed', images: [sha256(bytes)] });

      await store.delete({ appName: 'media', userId: 'u', id: 'inv' });
      expect((await sql.query(`SELECT count(*)::int AS n FROM "${schema}".replan_blobs`)).rows[0].n).toBe(0);
    } finally {
      await store.close();
      await sql.end();
    }
  });

  it('migrates a schema of the previous format (migrations 1-4, events of schema version 1) and loads its sessions', async () => {
    const schema = db.freshSchema('v4');
    const sql = new pg.Pool({ connectionString: db.connectionString, max: 2 });
    const tables = new Tables(schema);
    try {
      await sql.query(`CREATE SCHEMA "${schema}"`);
      await sql.query(
        `CREATE TABLE ${tables.migrations} (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
      for (const m of MIGRATIONS.filter((m) => m.version <= 4)) {
        await sql.query(m.sql(tables));
        await sql.query(`INSERT INTO ${tables.migrations} (version, name) VALUES ($1, $2)`, [m.version, m.name]);
      }
      // Rows as the previous version wrote them.
      const event = {
        id: 'ev-1',
        invocationId: 'i',
        author: 'user',
        path: 'user',
        timestamp: 1,
        message: { role: 'user', content: [{ type: 'text', text: 'old' }] },
      };
      await sql.query(
        `INSERT INTO ${tables.sessions} (app_name, user_id, id, schema_version, state, version, created_at, updated_at) VALUES ('app', 'u1', 'old', 1, '{"topic":"x"}', 1, 0, 0)`,
      );
      await sql.query(
        `INSERT INTO ${tables.events} (app_name, user_id, session_id, seq, event_id, schema_version, event) VALUES ('app', 'u1', 'old', 1, 'ev-1', 1, $1)`,
        [JSON.stringify(event)],
      );
      const store = new PostgresSessionStore({ pool: sql, schema });
      const key = { appName: 'app', userId: 'u1', id: 'old' };
      const session = await store.get(key);
      expect(session?.events).toEqual([event]);
      expect(session?.state).toEqual({ topic: 'x' });
      const bytes = pngBytes(500);
      await store.appendEvents(key, [{ ...event, id: 'ev-2', message: { role: 'user', content: [imageFromBytes(bytes)] } }], {
        expectedVersion: 1,
      });
      expect((await store.get(key))?.events[1]?.message?.content[0]).toEqual({
        type: 'image',
        mediaType: 'image/png',
        blob: sha256(bytes),
        size: 500,
      });
      const applied = await sql.query(`SELECT version FROM ${tables.migrations} ORDER BY version`);
      expect(applied.rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
      // A blob row that went missing is named when it is read.
      await sql.query(`DELETE FROM ${tables.blobs}`);
      const error = await store.readBlob(key, sha256(bytes)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SessionCorruptError);
      expect((error as Error).message).toContain(sha256(bytes));
      await store.close();
    } finally {
      await sql.end();
    }
  });
});
