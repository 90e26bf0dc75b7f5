import { createHash, randomBytes } from 'node:crypto';
import { describe, expect } from 'vitest';
import { SessionStoreError, imageFromBytes } from '@replan/core';
import { contractEvent } from '@replan/core/testing';
import { PostgresSessionStore } from '@replan/postgres';
import { useTestPostgres } from './support/use-test-postgres.js';

const db = useTestPostgres();
const it = db.it;
const key = { appName: 'app', userId: 'u1', id: 's' };
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('PostgresSessionStore close()', () => {
  it('waits for an append with an image that is still checking its blobs, then ends the pool', async () => {
    const schema = db.freshSchema('close_media');
    const store = new PostgresSessionStore({ connectionString: db.connectionString, schema });
    await store.create(key);
    const bytes = randomBytes(100 * 1024);
    const event = contractEvent('img', { message: { role: 'user', content: [imageFromBytes(bytes, { mediaType: 'image/png' })] } });
    // No await between them: the append is still reading which blobs the session holds when close() starts.
    const append = store.appendEvents(key, [event], { expectedVersion: 0 });
    await store.close();
    await expect(append).resolves.toEqual({ version: 1 });

    const reader = new PostgresSessionStore({ connectionString: db.connectionString, schema });
    try {
      const session = await reader.get(key);
      expect(session?.version).toBe(1);
      expect(session?.events[0]?.message?.content[0]).toMatchObject({ type: 'image', blob: sha256(bytes), size: bytes.length });
      expect(sha256(await reader.readBlob(key, sha256(bytes)))).toBe(sha256(bytes));
    } finally {
      await reader.close();
    }
  });

  it('refuses an append made after close() began with SessionStoreError, and writes nothing', async () => {
    const schema = db.freshSchema('close_after');
    const store = new PostgresSessionStore({ connectionString: db.connectionString, schema });
    await store.create(key);
    const closing = store.close();
    const late = store.appendEvents(key, [contractEvent('late')], { expectedVersion: 0 }).catch((e: unknown) => e);
    await closing;
    const error = await late;
    expect(error).toBeInstanceOf(SessionStoreError);
    expect((error as SessionStoreError).message).toMatch(/closed/);

    const reader = new PostgresSessionStore({ connectionString: db.connectionString, schema });
    try {
      expect((await reader.get(key))?.version).toBe(0);
    } finally {
      await reader.close();
    }
  });
});
