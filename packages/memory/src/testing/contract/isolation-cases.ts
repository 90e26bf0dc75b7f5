import type { MemoryScope } from '../../memory-store.js';
import { APP, appScope, type MemoryCaseApi, userScope } from './contract-api.js';

/**
 * Valid ids that naive storage would mix up or misuse (paths, prototype keys, encodings, lengths).
 * A store must keep each one's memories apart from every other's.
 */
const HOSTILE_USERS: readonly string[] = [
  '../x',
  '..',
  '.',
  '/',
  'a/b',
  'a\\b',
  '__proto__',
  'constructor',
  'A',
  'a',
  '%2e%2e',
  'con',
  '*',
  "'; DROP TABLE x; --",
  'e\u0301',
  '\u00e9',
  '😀',
  `${'x'.repeat(255)}1`,
  `${'x'.repeat(255)}2`,
];

/** Values no store may take as an appName or userId: `MemoryError('invalid')`, nothing stored. */
const BAD_IDS: readonly (readonly [string, unknown])[] = [
  ['NUL', 'a\u0000b'],
  ['a newline', 'a\nb'],
  ['a lone surrogate', 'x\uD800'],
  ['10 kB', 'y'.repeat(10_000)],
  ['an empty string', ''],
  ['null', null],
  ['a number', 7],
];

/** Scopes are exact: a user's memories never reach another user's, or the app's, reads or deletes. */
export function isolationCases({ it, expect, withStore, expectMemoryError }: MemoryCaseApi): void {
  it(
    'each scope (the app, and every hostile user id) sees only its own items in search, list, get and delete',
    withStore(async (store) => {
      const scopes: MemoryScope[] = [appScope, ...HOSTILE_USERS.map(userScope), { appName: '../x', userId: 'a' }, { appName: '__proto__' }];
      const ids: string[] = [];
      for (const [i, scope] of scopes.entries())
        ids.push((await store.put({ scope, kind: 'fact', text: `shared secret word number${i}` })).id);
      for (const [i, scope] of scopes.entries()) {
        const found = await store.search({ scope, query: 'shared secret word', k: 100 });
        expect({ i, ids: found.map((h) => h.item.id) }).toEqual({ i, ids: [ids[i]] });
        expect(found[0]?.item.scope).toEqual(scope);
        const listed = await store.list({ scope, limit: 100 });
        expect({ i, ids: listed.items.map((item) => item.id) }).toEqual({ i, ids: [ids[i]] });
        const other = ids[(i + 1) % ids.length]!;
        expect(await store.get(scope, other)).toBeUndefined();
        expect(await store.delete(scope, other)).toBe(false);
      }
      // Nothing was deleted by the cross-scope deletes above.
      for (const [i, scope] of scopes.entries()) expect((await store.get(scope, ids[i]!))?.id).toBe(ids[i]);
    }),
  );

  it(
    'bad appName or userId values are MemoryError("invalid") in every method, and nothing is stored',
    withStore(async (store) => {
      for (const [what, bad] of BAD_IDS) {
        const scopes = [{ appName: bad }, { appName: APP, userId: bad }] as unknown as MemoryScope[];
        for (const scope of scopes) {
          const error = await expectMemoryError(store.put({ scope, kind: 'fact', text: `bad ${what}` }), 'invalid');
          expect(error.message.length).toBeLessThan(1000); // a hostile value is previewed, never echoed whole
          await expectMemoryError(store.search({ scope, query: 'bad' }), 'invalid');
          await expectMemoryError(store.list({ scope }), 'invalid');
          await expectMemoryError(store.get(scope, 'x'), 'invalid');
          await expectMemoryError(store.delete(scope, 'x'), 'invalid');
        }
        await expectMemoryError(store.forgetUser({ appName: APP, userId: bad as string }), 'invalid');
      }
      await expectMemoryError(store.put({ scope: null as unknown as MemoryScope, kind: 'fact', text: 'x' }), 'invalid');
      expect((await store.list({ scope: appScope })).items).toEqual([]);
      expect(await store.search({ scope: appScope, query: 'bad' })).toEqual([]);
    }),
  );

  it(
    'forgetUser deletes every item of that user, only, and returns the count',
    withStore(async (store) => {
      const alice = userScope('alice');
      const bob = userScope('bob');
      for (const kind of ['fact', 'episode', 'plan'] as const) await store.put({ scope: alice, kind, text: `alice ${kind}` });
      const bobs = [await store.put({ scope: bob, kind: 'fact', text: 'bob fact' })];
      const app = await store.put({ scope: appScope, kind: 'fact', text: 'app fact alice' });
      const otherApp = await store.put({ scope: { appName: 'other-app', userId: 'alice' }, kind: 'fact', text: 'alice elsewhere' });
      expect(await store.forgetUser({ appName: APP, userId: 'alice' })).toBe(3);
      expect((await store.list({ scope: alice })).items).toEqual([]);
      expect(await store.search({ scope: alice, query: 'alice' })).toEqual([]);
      expect((await store.list({ scope: bob })).items).toEqual(bobs);
      expect((await store.list({ scope: appScope })).items).toEqual([app]);
      expect(await store.get(otherApp.scope, otherApp.id)).toEqual(otherApp);
      expect(await store.forgetUser({ appName: APP, userId: 'alice' })).toBe(0);
      // The user can remember again afterwards.
      await store.put({ scope: alice, kind: 'fact', text: 'alice again' });
      expect((await store.list({ scope: alice })).items.map((i) => i.text)).toEqual(['alice again']);
      await expectMemoryError(store.forgetUser({ appName: APP } as unknown as { appName: string; userId: string }), 'invalid');
    }),
  );
}
