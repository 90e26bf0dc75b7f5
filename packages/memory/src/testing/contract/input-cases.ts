import type { MemoryKind, NewMemory } from '../../memory-store.js';
import { type MemoryCaseApi, userScope, wordEmbedder } from './contract-api.js';

const ALICE = userScope('alice');

function cyclic(): Record<string, unknown> {
  const value: Record<string, unknown> = { a: 1 };
  value.self = value;
  return value;
}

/** Bad input is a typed `MemoryError` and leaves nothing behind; the embedder's failures are `embedder`. */
export function inputCases({ it, expect, withStore, expectMemoryError }: MemoryCaseApi): void {
  let dims = 64; // the length of the next vectors of the changing embedder below
  it(
    'metadata is JSON only: a function, a BigInt, a cycle, a Date are "invalid" and nothing is stored',
    withStore(async (store) => {
      const bad: unknown[] = [{ f: () => 1 }, { n: 10n }, cyclic(), { when: new Date(0) }, { x: Number.NaN }, ['not', 'an object']];
      for (const metadata of bad)
        await expectMemoryError(store.put({ scope: ALICE, kind: 'fact', text: 'meta', metadata } as unknown as NewMemory), 'invalid');
      expect((await store.list({ scope: ALICE })).items).toEqual([]);
      const nested = JSON.parse('{"__proto__": {"polluted": true}, "deep": [[{"k": "v"}]]}') as Record<string, unknown>;
      const item = await store.put({ scope: ALICE, kind: 'fact', text: 'meta', metadata: nested });
      const back = await store.get(ALICE, item.id);
      expect(JSON.stringify(back?.metadata)).toBe(JSON.stringify(nested));
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }),
  );

  it(
    'a 1 MB text is "too_large" (default limit 64 KiB); limits are configurable; nothing is stored',
    withStore(async (store) => {
      const error = await expectMemoryError(store.put({ scope: ALICE, kind: 'fact', text: 'z'.repeat(1024 * 1024) }), 'too_large');
      expect(error.message).toContain('limits.maxTextBytes');
      await expectMemoryError(
        store.put({ scope: ALICE, kind: 'fact', text: 'big meta', metadata: { blob: 'm'.repeat(70_000) } }),
        'too_large',
      );
      await expectMemoryError(store.search({ scope: ALICE, query: 'q'.repeat(1024 * 1024) }), 'too_large');
      expect((await store.list({ scope: ALICE })).items).toEqual([]);
      expect((await store.put({ scope: ALICE, kind: 'fact', text: 'w'.repeat(64 * 1024) })).text.length).toBe(64 * 1024);
    }),
  );

  it(
    'limits given to the store apply (text counted in UTF-8 bytes)',
    withStore(
      async (store) => {
        await store.put({ scope: ALICE, kind: 'fact', text: 'é'.repeat(50) }); // 100 bytes
        await expectMemoryError(store.put({ scope: ALICE, kind: 'fact', text: `${'é'.repeat(50)}x` }), 'too_large');
        await expectMemoryError(store.put({ scope: ALICE, kind: 'fact', text: 'ok', metadata: { s: 'x'.repeat(20) } }), 'too_large');
        expect((await store.list({ scope: ALICE })).items).toHaveLength(1);
      },
      { limits: { maxTextBytes: 100, maxMetadataBytes: 20 } },
    ),
  );

  it(
    'other bad input is "invalid": kind, text, source, k, kinds, cursor, id',
    withStore(async (store) => {
      const put = (memory: Record<string, unknown>) =>
        store.put({ scope: ALICE, kind: 'fact', text: 'ok', ...memory } as unknown as NewMemory);
      await expectMemoryError(put({ kind: 'bogus' }), 'invalid');
      await expectMemoryError(put({ text: '' }), 'invalid');
      await expectMemoryError(put({ text: '  \n ' }), 'invalid');
      await expectMemoryError(put({ text: 42 }), 'invalid');
      await expectMemoryError(put({ text: 'lone \uDC00' }), 'invalid');
      await expectMemoryError(put({ text: 'nul \u0000' }), 'invalid');
      await expectMemoryError(put({ source: { sessionId: 'a\u0000' } }), 'invalid');
      await expectMemoryError(put({ source: { sessionId: 's', eventId: 'e'.repeat(10_000) } }), 'invalid');
      await expectMemoryError(put({ source: {} }), 'invalid');
      expect((await store.list({ scope: ALICE })).items).toEqual([]);
      for (const k of [0, -1, 1.5, 1001, Number.NaN]) await expectMemoryError(store.search({ scope: ALICE, query: 'q', k }), 'invalid');
      for (const kinds of [[], ['bogus'], 'fact'] as unknown as MemoryKind[][]) {
        await expectMemoryError(store.search({ scope: ALICE, query: 'q', kinds }), 'invalid');
        await expectMemoryError(store.list({ scope: ALICE, kinds }), 'invalid');
      }
      for (const cursor of ['garbage', '../x', 'm'.repeat(27)]) await expectMemoryError(store.list({ scope: ALICE, cursor }), 'invalid');
      for (const limit of [0, 1001, 2.5]) await expectMemoryError(store.list({ scope: ALICE, limit }), 'invalid');
      await expectMemoryError(store.get(ALICE, 42 as unknown as string), 'invalid');
      await expectMemoryError(store.delete(ALICE, null as unknown as string), 'invalid');
      // Ids of any other shape are simply not found.
      for (const id of ['../x', '__proto__', 'x'.repeat(10_000), 'a\u0000', '\uD800']) {
        expect(await store.get(ALICE, id)).toBeUndefined();
        expect(await store.delete(ALICE, id)).toBe(false);
      }
    }),
  );

  const failing = (result: () => unknown) => ({
    embed: async (texts: readonly string[]) => (texts.length ? (result() as number[][]) : []),
  });

  let broken = false; // the embedder below works until a case breaks it
  it(
    'an embedder that throws is "embedder" on put (nothing stored) and on search',
    withStore(
      async (store) => {
        const kept = await store.put({ scope: ALICE, kind: 'fact', text: 'stored while the embedder worked' });
        broken = true;
        const error = await expectMemoryError(store.put({ scope: ALICE, kind: 'fact', text: 'x' }), 'embedder');
        expect(error.message).toContain('model offline');
        await expectMemoryError(store.search({ scope: ALICE, query: 'embedder' }), 'embedder');
        expect((await store.list({ scope: ALICE })).items).toEqual([kept]);
      },
      {
        embed: async (texts) => {
          if (broken) throw new Error('model offline');
          return wordEmbedder(texts);
        },
      },
    ),
  );

  it(
    'an embedder returning the wrong number of vectors, or not numbers, is "embedder"',
    withStore(
      async (store) => {
        await expectMemoryError(store.put({ scope: ALICE, kind: 'fact', text: 'two vectors' }), 'embedder');
        expect((await store.list({ scope: ALICE })).items).toEqual([]);
      },
      failing(() => [
        [1, 0],
        [0, 1],
      ]),
    ),
  );

  it(
    'an embedder returning non-finite numbers or an empty vector is "embedder"',
    withStore(
      async (store) => {
        await expectMemoryError(store.put({ scope: ALICE, kind: 'fact', text: 'nan' }), 'embedder');
        await expectMemoryError(store.put({ scope: ALICE, kind: 'fact', text: 'empty' }), 'embedder');
        await expectMemoryError(store.put({ scope: ALICE, kind: 'fact', text: 'string' }), 'embedder');
        expect((await store.list({ scope: ALICE })).items).toEqual([]);
      },
      (() => {
        const answers = [[[Number.NaN, 1]], [[]], [['1', '2']]];
        return { embed: async () => answers.shift() as number[][] };
      })(),
    ),
  );

  it(
    'an embedder whose vectors change length is "embedder" on put (nothing stored) and on search',
    withStore(
      async (store) => {
        const kept = await store.put({ scope: ALICE, kind: 'fact', text: 'apple pie' });
        dims = 3;
        await expectMemoryError(store.put({ scope: ALICE, kind: 'fact', text: 'apple tart' }), 'embedder');
        await expectMemoryError(store.search({ scope: ALICE, query: 'apple' }), 'embedder');
        dims = 64;
        expect((await store.list({ scope: ALICE })).items).toEqual([kept]);
        expect((await store.search({ scope: ALICE, query: 'apple' })).map((h) => h.item.id)).toEqual([kept.id]);
      },
      { embed: async (texts) => (await wordEmbedder(texts)).map((v) => v.slice(0, dims)) },
    ),
  );
}
