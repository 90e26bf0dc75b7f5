import type { MemoryItem, MemoryStore } from '../../memory-store.js';
import { appScope, type MemoryCaseApi, userScope, wordEmbedder } from './contract-api.js';

const ALICE = userScope('alice');

async function seed(store: MemoryStore): Promise<MemoryItem[]> {
  const texts = [
    "The user's favourite colour is green.",
    'Deployments happen on Friday afternoons.',
    'The cat is named Miso and likes tuna.',
    'Quarterly reports are due in April.',
  ];
  const items: MemoryItem[] = [];
  for (const text of texts) items.push(await store.put({ scope: ALICE, kind: 'fact', text }));
  return items;
}

/** put, get, list, delete and search: what every store does the same way. */
export function basicCases({ it, expect, withStore }: MemoryCaseApi): void {
  it(
    'put returns the stored item; get reads it back with its metadata and source',
    withStore(async (store) => {
      const metadata = { tags: ['a', 'ü'], nested: { n: 1.5, ok: true, none: null } };
      const source = { sessionId: 's-1', eventId: 'e-7', invocationId: 'inv-2' };
      const before = Date.now();
      const item = await store.put({ scope: ALICE, kind: 'episode', text: 'We shipped v2 😀', metadata, source });
      expect(item).toEqual({
        id: item.id,
        scope: ALICE,
        kind: 'episode',
        text: 'We shipped v2 😀',
        metadata,
        source,
        createdAt: item.createdAt,
      });
      expect(typeof item.id).toBe('string');
      expect(item.createdAt).toBeGreaterThanOrEqual(before - 1000);
      expect(item.createdAt).toBeLessThanOrEqual(Date.now() + 1000);
      expect(await store.get(ALICE, item.id)).toEqual(item);
      const bare = await store.put({ scope: appScope, kind: 'fact', text: 'no extras' });
      expect(Object.keys(bare).sort()).toEqual(['createdAt', 'id', 'kind', 'scope', 'text']);
      expect(await store.get(appScope, bare.id)).toEqual(bare);
    }),
  );

  it(
    "what is stored does not change when the caller's objects change later",
    withStore(async (store) => {
      const metadata = { list: [1, 2] };
      const item = await store.put({ scope: ALICE, kind: 'fact', text: 'kept as given', metadata });
      metadata.list.push(3);
      expect((await store.get(ALICE, item.id))?.metadata).toEqual({ list: [1, 2] });
    }),
  );

  it(
    'get and delete of an unknown id: undefined and false',
    withStore(async (store) => {
      expect(await store.get(ALICE, 'm0000000000000000000000000')).toBeUndefined();
      expect(await store.get(ALICE, 'not-an-id')).toBeUndefined();
      expect(await store.delete(ALICE, 'not-an-id')).toBe(false);
    }),
  );

  it(
    'list pages in creation order; the pages together are every item once; kinds filter',
    withStore(async (store) => {
      const made: MemoryItem[] = [];
      for (let i = 0; i < 7; i++)
        made.push(await store.put({ scope: ALICE, kind: i % 3 === 0 ? 'plan' : 'fact', text: `item number ${i}` }));
      const seen: MemoryItem[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await store.list({ scope: ALICE, limit: 3, ...(cursor !== undefined && { cursor }) });
        seen.push(...page.items);
        cursor = page.nextCursor;
        pages++;
      } while (cursor !== undefined);
      expect(pages).toBe(3);
      expect(seen).toEqual(made);
      const plans = await store.list({ scope: ALICE, kinds: ['plan'] });
      expect(plans.items.map((i) => i.text)).toEqual(['item number 0', 'item number 3', 'item number 6']);
      expect(plans.nextCursor).toBeUndefined();
      expect((await store.list({ scope: ALICE, limit: 7 })).nextCursor).toBeUndefined();
      expect((await store.list({ scope: userScope('nobody') })).items).toEqual([]);
    }),
  );

  it(
    'delete removes one item from get, list and search; a second delete is false',
    withStore(async (store) => {
      const [colour, deploy] = await seed(store);
      expect(await store.delete(ALICE, colour!.id)).toBe(true);
      expect(await store.get(ALICE, colour!.id)).toBeUndefined();
      expect((await store.list({ scope: ALICE })).items.map((i) => i.id)).not.toContain(colour!.id);
      expect((await store.search({ scope: ALICE, query: 'favourite colour green' })).map((h) => h.item.id)).not.toContain(colour!.id);
      expect(await store.delete(ALICE, colour!.id)).toBe(false);
      expect(await store.get(ALICE, deploy!.id)).toEqual(deploy);
    }),
  );

  it(
    'search ranks the relevant item first, with finite positive scores, best first',
    withStore(async (store) => {
      const [colour, , cat] = await seed(store);
      const hits = await store.search({ scope: ALICE, query: 'which colour is the favourite' });
      expect(hits[0]?.item).toEqual(colour);
      for (const hit of hits) expect(Number.isFinite(hit.score) && hit.score > 0).toBe(true);
      for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
      expect((await store.search({ scope: ALICE, query: 'tuna for the cat Miso' }))[0]?.item.id).toBe(cat!.id);
      expect(await store.search({ scope: ALICE, query: '   ' })).toEqual([]);
      expect(await store.search({ scope: ALICE, query: 'zebra xylophone' })).toEqual([]);
    }),
  );

  it(
    'search returns at most k (default 5) and only the kinds asked for',
    withStore(async (store) => {
      for (let i = 0; i < 8; i++) await store.put({ scope: ALICE, kind: 'fact', text: `apple fact ${i}` });
      const plan = await store.put({ scope: ALICE, kind: 'plan', text: 'apple orchard plan' });
      expect(await store.search({ scope: ALICE, query: 'apple' })).toHaveLength(5);
      expect(await store.search({ scope: ALICE, query: 'apple', k: 3 })).toHaveLength(3);
      expect(await store.search({ scope: ALICE, query: 'apple', k: 100 })).toHaveLength(9);
      const plans = await store.search({ scope: ALICE, query: 'apple', kinds: ['plan'] });
      expect(plans.map((h) => h.item)).toEqual([plan]);
      expect(await store.search({ scope: ALICE, query: 'apple', kinds: ['episode'] })).toEqual([]);
    }),
  );

  it(
    'equal scores come oldest first, and the same search gives the same order and scores',
    withStore(async (store) => {
      const same: MemoryItem[] = [];
      for (let i = 0; i < 4; i++) same.push(await store.put({ scope: ALICE, kind: 'fact', text: 'identical words here' }));
      const first = await store.search({ scope: ALICE, query: 'identical words', k: 10 });
      expect(first.map((h) => h.item.id)).toEqual(same.map((i) => i.id));
      expect(new Set(first.map((h) => h.score)).size).toBe(1);
      expect(await store.search({ scope: ALICE, query: 'identical words', k: 10 })).toEqual(first);
    }),
  );

  it(
    'with an embedder, search ranks by meaning (cosine): the closest item first, scores at most 1',
    withStore(
      async (store) => {
        const [colour, deploy] = await seed(store);
        const hits = await store.search({ scope: ALICE, query: 'favourite colour green', k: 2 });
        expect(hits[0]?.item).toEqual(colour);
        expect(hits[0]!.score).toBeLessThanOrEqual(1 + 1e-9);
        expect(hits[0]!.score).toBeGreaterThan(hits[1]?.score ?? 0);
        const friday = await store.search({ scope: ALICE, query: 'friday deployments', kinds: ['fact'], k: 1 });
        expect(friday.map((h) => h.item.id)).toEqual([deploy!.id]);
        expect(await store.search({ scope: ALICE, query: 'friday deployments', kinds: ['plan'] })).toEqual([]);
      },
      { embed: wordEmbedder },
    ),
  );
}
