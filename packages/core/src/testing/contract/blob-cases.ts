import { createHash } from 'node:crypto';
import type { AgentEvent } from '../../events/agent-event.js';
import type { ContentBlock, MediaBlock } from '../../messages/content-block.js';
import type { BlobLimits } from '../../sessions/blobs/blob-limits.js';
import type { SessionKey } from '../../sessions/session.js';
import type { SessionStore } from '../../sessions/session-store.js';
import { contractEvent } from './contract-event.js';
import { type ContractCaseApi, rejectionOf } from './contract-case.js';

/** What the blob cases need beyond the common API. */
export interface BlobCaseOptions {
  /** `true`: the store must have `readBlob`; `false`: skip; `undefined`: check a store that has it. */
  readonly required: boolean | undefined;
  /** A fresh store with these blob limits, for the limit cases (skipped without it). */
  readonly createStoreWithLimits: ((limits: BlobLimits) => SessionStore | Promise<SessionStore>) | undefined;
  readonly disposeStore: ((store: SessionStore) => void | Promise<void>) | undefined;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
/** Deterministic bytes of `size` (a PNG signature first, so they read as an image). */
export function contractImageBytes(size: number, seed = 1): Buffer {
  const bytes = Buffer.alloc(size);
  let x = seed * 2654435761;
  for (let i = 0; i < size; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    bytes[i] = x >>> 24;
  }
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0, 0, Math.min(8, size));
  return bytes;
}
const image = (bytes: Uint8Array): MediaBlock => ({ type: 'image', mediaType: 'image/png', data: Buffer.from(bytes).toString('base64') });
const withContent = (content: ContentBlock[]): AgentEvent => ({ ...contractEvent('media'), message: { role: 'user', content } });

/**
 * Blobs: an image or file appended with inline `data` is stored as `{ blob: sha256, size,
 * mediaType }` and its bytes come back from `readBlob` (also inside tool results); the same bytes
 * are one blob; an unknown blob is a `SessionCorruptError` naming it, an id not shaped as one an
 * `InvalidArgumentError`; `readBlob` answers a copy; blobs are the session's
 * own and go when it is deleted; an append naming a blob the session lacks, or with bad base64,
 * is refused writing nothing; and, given `createStoreWithLimits`, the size limits are typed errors
 * and an append refused for its version keeps none of its blobs.
 */
export function blobCases({ it, expect, withStore, app }: ContractCaseApi, options: BlobCaseOptions): void {
  const withBlobStore = (body: (store: SessionStore & Required<Pick<SessionStore, 'readBlob'>>) => Promise<void>) =>
    withStore(async (store) => {
      if (!store.readBlob) {
        if (options.required)
          throw new Error('This store has no readBlob: implement it, or pass { blobs: false } to runSessionStoreContract.');
        return;
      }
      await body(store as SessionStore & Required<Pick<SessionStore, 'readBlob'>>);
    });
  const key = (id: string, userId = 'u1'): SessionKey => ({ appName: app, userId, id });
  const stored = async (store: SessionStore, k: SessionKey, at = 0) => (await store.get(k))?.events[at]?.message?.content ?? [];

  it(
    'moves inline image bytes out of the event into a blob, named by SHA-256, read back by readBlob',
    withBlobStore(async (store) => {
      const bytes = contractImageBytes(3000);
      await store.create(key('b1'), [withContent([{ type: 'text', text: 'look' }, image(bytes)])]);
      const [text, block] = await stored(store, key('b1'));
      expect(text).toEqual({ type: 'text', text: 'look' });
      expect(block).toEqual({ type: 'image', mediaType: 'image/png', blob: sha256(bytes), size: 3000 });
      expect(sha256(await store.readBlob(key('b1'), sha256(bytes)))).toBe(sha256(bytes));
    }),
  );

  it(
    'stores the same bytes once, in messages and in tool results, keeping detail and filename',
    withBlobStore(async (store) => {
      const bytes = contractImageBytes(500, 2);
      await store.create(key('b2'));
      const result: AgentEvent = {
        ...contractEvent('tool'),
        message: {
          role: 'tool',
          content: [
            {
              type: 'tool_result',
              toolCallId: 'c1',
              name: 'shot',
              output: [
                { type: 'text', text: 'page' },
                { ...image(bytes), detail: 'low' },
              ],
            },
          ],
        },
      };
      const file: MediaBlock = {
        type: 'file',
        mediaType: 'application/pdf',
        filename: 'a.pdf',
        data: Buffer.from(bytes).toString('base64'),
      };
      await store.appendEvents(key('b2'), [result, withContent([file])], { expectedVersion: 0 });
      const session = await store.get(key('b2'));
      const output = (session?.events[0]?.message?.content[0] as { output?: unknown } | undefined)?.output;
      expect(output).toEqual([
        { type: 'text', text: 'page' },
        { type: 'image', mediaType: 'image/png', detail: 'low', blob: sha256(bytes), size: 500 },
      ]);
      expect(session?.events[1]?.message?.content[0]).toEqual({
        type: 'file',
        mediaType: 'application/pdf',
        filename: 'a.pdf',
        blob: sha256(bytes),
        size: 500,
      });
      expect(Buffer.from(await store.readBlob(key('b2'), sha256(bytes)))).toEqual(bytes);
      // A later event may name a blob the session holds.
      await store.appendEvents(key('b2'), [withContent([{ type: 'image', mediaType: 'image/png', blob: sha256(bytes), size: 500 }])], {
        expectedVersion: 2,
      });
      expect((await store.get(key('b2')))?.version).toBe(3);
    }),
  );

  it(
    'fails a read of a blob the session does not hold with SessionCorruptError naming it; blobs are per session',
    withBlobStore(async (store) => {
      const bytes = contractImageBytes(100, 3);
      await store.create(key('b3'), [withContent([image(bytes)])]);
      await store.create(key('b3-other'));
      const unknown = 'f'.repeat(64);
      const missing = await rejectionOf(store.readBlob(key('b3'), unknown));
      expect(missing?.name).toBe('SessionCorruptError');
      expect(missing?.message).toContain(unknown);
      expect((await rejectionOf(store.readBlob(key('b3-other'), sha256(bytes))))?.name).toBe('SessionCorruptError');
      expect((await rejectionOf(store.readBlob(key('b3-absent'), sha256(bytes))))?.name).toBe('SessionNotFoundError');
    }),
  );

  it(
    'answers readBlob with a copy: writing to the bytes read leaves the stored blob as it was',
    withBlobStore(async (store) => {
      const bytes = contractImageBytes(200, 8);
      await store.create(key('b-copy'), [withContent([image(bytes)])]);
      const first = await store.readBlob(key('b-copy'), sha256(bytes));
      first.fill(0);
      expect(sha256(await store.readBlob(key('b-copy'), sha256(bytes)))).toBe(sha256(bytes));
    }),
  );

  it(
    'refuses a blob id that is not 64 lowercase hex digits ("../x", uppercase) with InvalidArgumentError',
    withBlobStore(async (store) => {
      await store.create(key('b-id'), [withContent([image(contractImageBytes(100, 9))])]);
      for (const bad of ['../x', '../../etc/passwd', 'F'.repeat(64), '', 'a'.repeat(65)]) {
        const error = await rejectionOf(store.readBlob(key('b-id'), bad));
        expect({ bad, name: error?.name }).toEqual({ bad, name: 'InvalidArgumentError' });
        expect(error?.message).toContain('is not a blob id');
      }
    }),
  );

  it(
    'deletes a session with its blobs',
    withBlobStore(async (store) => {
      const bytes = contractImageBytes(100, 4);
      await store.create(key('b4'), [withContent([image(bytes)])]);
      await store.delete(key('b4'));
      await store.create(key('b4'));
      expect((await rejectionOf(store.readBlob(key('b4'), sha256(bytes))))?.name).toBe('SessionCorruptError');
    }),
  );

  it(
    'refuses an append naming a blob the session lacks, or with data that is not base64, writing nothing',
    withBlobStore(async (store) => {
      await store.create(key('b5'));
      const foreign = { type: 'image', mediaType: 'image/png', blob: 'a'.repeat(64), size: 3 } as const;
      const bad = { type: 'image', mediaType: 'image/png', data: 'not base64!' } as const;
      for (const block of [foreign, bad]) {
        const error = await rejectionOf(store.appendEvents(key('b5'), [contractEvent('ok'), withContent([block])], { expectedVersion: 0 }));
        expect(error?.name).toBe('InvalidMediaError');
      }
      expect((await store.get(key('b5')))?.version).toBe(0);
    }),
  );

  const readBlob = (store: SessionStore, k: SessionKey, id: string) => {
    if (!store.readBlob) throw new Error('This store has no readBlob: implement it, or pass { blobs: false } to runSessionStoreContract.');
    return store.readBlob(k, id);
  };
  const withLimits = (limits: BlobLimits, body: (store: SessionStore) => Promise<void>) => async () => {
    if (!options.createStoreWithLimits) return;
    const store = await options.createStoreWithLimits(limits);
    try {
      if (store.readBlob || options.required) await body(store);
    } finally {
      await options.disposeStore?.(store);
    }
  };

  it(
    'refuses a blob over maxBlobBytes and a session over maxSessionBlobBytes with typed errors, writing nothing',
    withLimits({ maxBlobBytes: 1000, maxSessionBlobBytes: 1500 }, async (store) => {
      await store.create(key('b6'));
      const big = await rejectionOf(
        store.appendEvents(key('b6'), [withContent([image(contractImageBytes(1001, 5))])], { expectedVersion: 0 }),
      );
      expect(big).toMatchObject({ name: 'BlobLimitError', scope: 'blob' });
      expect(big?.message).toMatch(/maxBlobBytes/);
      await store.appendEvents(key('b6'), [withContent([image(contractImageBytes(1000, 6))])], { expectedVersion: 0 });
      // The same bytes again add nothing; new ones pass the session's total.
      await store.appendEvents(key('b6'), [withContent([image(contractImageBytes(1000, 6))])], { expectedVersion: 1 });
      const total = await rejectionOf(
        store.appendEvents(key('b6'), [withContent([image(contractImageBytes(600, 7))])], { expectedVersion: 2 }),
      );
      expect(total).toMatchObject({ name: 'BlobLimitError', scope: 'session' });
      expect(total?.message).toMatch(/maxSessionBlobBytes/);
      expect((await store.get(key('b6')))?.version).toBe(2);
      const first = await rejectionOf(store.create(key('b6-new'), [withContent([image(contractImageBytes(1001, 8))])]));
      expect(first).toMatchObject({ name: 'BlobLimitError', scope: 'blob' });
      expect(await store.get(key('b6-new'))).toBeUndefined();
    }),
  );

  it(
    'keeps nothing of an append refused for its version: its image neither counts toward maxSessionBlobBytes nor reads back',
    withLimits({ maxSessionBlobBytes: 5000 }, async (store) => {
      await store.create(key('b7'), [contractEvent('first')]);
      const refused = contractImageBytes(3000, 9);
      const conflict = await rejectionOf(store.appendEvents(key('b7'), [withContent([image(refused)])], { expectedVersion: 0 }));
      expect(conflict?.name).toBe('ConcurrentUpdateError');
      // Had the refused image been kept, 3000 more bytes would pass the 5000-byte limit.
      const kept = contractImageBytes(3000, 10);
      await store.appendEvents(key('b7'), [withContent([image(kept)])], { expectedVersion: 1 });
      expect(sha256(await readBlob(store, key('b7'), sha256(kept)))).toBe(sha256(kept));
      expect((await rejectionOf(readBlob(store, key('b7'), sha256(refused))))?.name).toBe('SessionCorruptError');
      expect((await store.get(key('b7')))?.version).toBe(2);
    }),
  );
}
