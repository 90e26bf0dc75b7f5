import type { SessionKey } from '../../sessions/session.js';
import { MAX_ID_LENGTH } from '../../sessions/session-key-rules.js';
import type { SessionStore } from '../../sessions/session-store.js';
import { contractEvent } from './contract-event.js';
import { type ContractCaseApi, rejectionOf } from './contract-case.js';

/** Values no store may accept as `appName`, `userId` or session id. */
const BAD_IDS: readonly (readonly [string, unknown])[] = [
  ['a lone high surrogate', 'v\uD800'],
  ['a lone low surrogate', '\uDC00v'],
  ['NUL', 'c\u0000d'],
  ['a newline (C0 control)', 'a\nb'],
  ['DEL', 'a\u007f'],
  ['a C1 control character', 'a\u0085b'],
  ['an empty string', ''],
  ['a string one code unit over MAX_ID_LENGTH', 'x'.repeat(MAX_ID_LENGTH + 1)],
  ['a number', 42],
  ['undefined', undefined],
  ['null', null],
  ['an object', { id: 'x' }],
];

/** Distinct valid ids that naive encodings (case folding, escaping, UTF-8, normalisation, truncation) would merge. */
const LOOKALIKE_IDS: readonly string[] = [
  'A',
  'a',
  'a/b',
  'a%2Fb',
  'a_b',
  'a\\b',
  '..',
  '.',
  '%',
  'con',
  '\u00e9', // é, NFC
  'e\u0301', // é, NFD
  'v\uFFFD',
  // Long ids sharing a 250-code-unit prefix (stores that shorten long names must still keep them apart).
  `${'x'.repeat(250)}1`,
  `${'x'.repeat(250)}2`,
  '😀',
  '😁',
];

type Field = 'appName' | 'userId' | 'session id';
const FIELDS: readonly Field[] = ['appName', 'userId', 'session id'];

/** The identifier rules: bad ids are refused by every method; distinct valid ids never share storage. */
export function identifierCases({ it, expect, withStore, app }: ContractCaseApi): void {
  const valid = (id = 's', userId = 'u1'): SessionKey => ({ appName: app, userId, id });
  const withField = (field: Field, value: unknown): SessionKey => {
    const key = { ...valid() } as Record<string, unknown>;
    key[field === 'session id' ? 'id' : field] = value;
    return key as unknown as SessionKey;
  };
  const expectInvalid = async (promise: Promise<unknown>, field: Field, what: string) => {
    const error = await rejectionOf(promise);
    expect({ what, name: error?.name }).toEqual({ what, name: 'InvalidArgumentError' });
    expect(error?.message).toContain(`Invalid ${field}`);
    // A short preview of the id, never the whole value.
    expect(error?.message.length).toBeLessThan(600);
  };
  /** Every method of the store called with `key`, each expected to refuse it naming `field`. */
  const expectAllRefuse = async (store: SessionStore, key: SessionKey, field: Field, label: string) => {
    await expectInvalid(store.create({ ...key, state: { 'user:x': 1 } }, [contractEvent('x')]), field, `create, ${label}`);
    await expectInvalid(store.get(key), field, `get, ${label}`);
    await expectInvalid(store.delete(key), field, `delete, ${label}`);
    await expectInvalid(store.appendEvents(key, [contractEvent('x')], { expectedVersion: 1 }), field, `appendEvents, ${label}`);
    if (store.readBlob) await expectInvalid(store.readBlob(key, 'a'.repeat(64)), field, `readBlob, ${label}`);
    if (field !== 'session id') await expectInvalid(store.list({ appName: key.appName, userId: key.userId }), field, `list, ${label}`);
  };

  for (const [label, bad] of BAD_IDS)
    it(
      `refuses ${label} as appName, userId and session id in every method (InvalidArgumentError)`,
      withStore(async (store) => {
        await store.create({ ...valid('s'), state: { 'user:x': 'kept' } }, [contractEvent('victim')]);
        for (const field of FIELDS) await expectAllRefuse(store, withField(field, bad), field, `${field} = ${label}`);
        const victim = await store.get(valid('s'));
        expect(victim?.version).toBe(1);
        expect(victim?.state['user:x']).toBe('kept');
        expect((await store.list({ appName: app, userId: 'u1' })).sessions.map((s) => s.id)).toEqual(['s']);
      }),
    );

  it(
    'refuses a hostile 10,000-character id with a short message that does not echo it',
    withStore(async (store) => {
      const hostile = `\u0000${'<script>'.repeat(1250)}`;
      const error = await rejectionOf(store.get(valid(hostile)));
      expect(error?.name).toBe('InvalidArgumentError');
      expect(error?.message).toContain('\\u0000');
      expect(error?.message).not.toContain('<script>'.repeat(10));
      expect(error?.message).toContain('10001 characters');
    }),
  );

  it(
    'accepts ids of exactly MAX_ID_LENGTH code units in every field, multi-byte characters included',
    withStore(async (store) => {
      // The worst case for byte-limited storage: varied (hardly compressible) 3-byte CJK characters in every field.
      const long = (salt: number) =>
        Array.from({ length: MAX_ID_LENGTH }, (_, i) => String.fromCharCode(0x4e00 + (((i + salt) * 7919) % 20000))).join('');
      const key = { appName: long(1), userId: long(2), id: long(3) };
      expect([key.appName.length, key.userId.length, key.id.length]).toEqual([MAX_ID_LENGTH, MAX_ID_LENGTH, MAX_ID_LENGTH]);
      await store.create({ ...key, state: { 'user:u': 1, 'app:a': 2 } }, [contractEvent('one')]);
      await store.appendEvents(key, [contractEvent('two')], { expectedVersion: 1 });
      const got = await store.get(key);
      expect(got?.version).toBe(2);
      expect(got?.state).toMatchObject({ 'user:u': 1, 'app:a': 2 });
      expect((await store.list({ appName: key.appName, userId: key.userId })).sessions.map((s) => s.id)).toEqual([key.id]);
      await store.delete(key);
      expect(await store.get(key)).toBeUndefined();
    }),
  );

  it(
    'keeps a lone-surrogate attacker ("v\\uD800") away from the "v\\uFFFD" victim\'s session and user: state',
    withStore(async (store) => {
      const victim = valid('v\uFFFD', 'v\uFFFD');
      await store.create({ ...victim, state: { 'user:secret': 'victim' } }, [contractEvent('private')]);
      await expectAllRefuse(store, valid('v\uFFFD', 'v\uD800'), 'userId', 'attacker user');
      await expectAllRefuse(store, valid('v\uD800', 'v\uFFFD'), 'session id', 'attacker session id');
      const got = await store.get(victim);
      expect(got?.events.length).toBe(1);
      expect(got?.state['user:secret']).toBe('victim');
    }),
  );

  it(
    'keeps user "b" asking for id "c\\0d" away from user "b\\0c"\'s session "d"',
    withStore(async (store) => {
      await expectInvalid(store.create({ ...valid('d', 'b\u0000c'), state: { 'user:secret': 1 } }), 'userId', 'create b\\0c/d');
      await expectAllRefuse(store, valid('c\u0000d', 'b'), 'session id', 'b/c\\0d');
      // Separators a naive store might join keys with: (user "a/b", id "c") and (user "a", id "b/c") stay apart.
      await store.create({ ...valid('c', 'a/b'), state: { 'user:who': 'a/b' } }, [contractEvent('first')]);
      await store.create({ ...valid('b/c', 'a'), state: { 'user:who': 'a' } });
      expect((await store.get(valid('c', 'a/b')))?.state['user:who']).toBe('a/b');
      expect((await store.get(valid('b/c', 'a')))?.state['user:who']).toBe('a');
      expect((await store.get(valid('b/c', 'a')))?.events.length).toBe(0);
      expect(await store.get(valid('c', 'b'))).toBeUndefined();
    }),
  );

  it(
    'gives each look-alike session id its own session, list entry and delete',
    withStore(async (store) => {
      for (const [i, id] of LOOKALIKE_IDS.entries()) await store.create({ ...valid(id), state: { n: i } }, [contractEvent(`n${i}`)]);
      for (const [i, id] of LOOKALIKE_IDS.entries()) {
        const got = await store.get(valid(id));
        expect({ id, n: got?.state.n, text: got?.events[0]?.message?.content[0] }).toEqual({
          id,
          n: i,
          text: { type: 'text', text: `n${i}` },
        });
      }
      const listed = await store.list({ appName: app, userId: 'u1', limit: 100 });
      expect(listed.sessions.map((s) => s.id).sort()).toEqual([...LOOKALIKE_IDS].sort());
      await store.delete(valid('a'));
      await store.delete(valid('\u00e9'));
      await store.delete(valid(`${'x'.repeat(250)}1`));
      const left = LOOKALIKE_IDS.filter((id) => id !== 'a' && id !== '\u00e9' && id !== `${'x'.repeat(250)}1`);
      expect((await store.list({ appName: app, userId: 'u1', limit: 100 })).sessions.map((s) => s.id).sort()).toEqual([...left].sort());
      for (const id of left) expect((await store.get(valid(id)))?.state.n).toBe(LOOKALIKE_IDS.indexOf(id));
    }),
  );

  it(
    'gives each look-alike userId its own sessions and user: state, and each look-alike appName its own app: state',
    withStore(async (store) => {
      for (const [i, userId] of LOOKALIKE_IDS.entries())
        await store.create({ ...valid('s', userId), state: { 'user:n': i } }, [contractEvent(`u${i}`)]);
      for (const [i, userId] of LOOKALIKE_IDS.entries()) {
        expect({ userId, n: (await store.get(valid('s', userId)))?.state['user:n'] }).toEqual({ userId, n: i });
        expect((await store.list({ appName: app, userId })).sessions.map((s) => s.userId)).toEqual([userId]);
      }
      await store.delete(valid('s', 'A'));
      expect(await store.get(valid('s', 'A'))).toBeUndefined();
      expect((await store.get(valid('s', 'a')))?.events.length).toBe(1);
      for (const [i, appName] of LOOKALIKE_IDS.slice(0, 6).entries())
        await store.create({ appName, userId: 'u1', id: 's', state: { 'app:n': i } });
      for (const [i, appName] of LOOKALIKE_IDS.slice(0, 6).entries())
        expect({ appName, n: (await store.get({ appName, userId: 'u1', id: 's' }))?.state['app:n'] }).toEqual({ appName, n: i });
    }),
  );
}
