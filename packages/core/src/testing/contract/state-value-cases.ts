import { z } from 'zod';
import type { Agent } from '../../invocation/agent.js';
import { ReActAgent } from '../../agents/react-agent.js';
import { Runner } from '../../runner/runner.js';
import type { SessionKey } from '../../sessions/session.js';
import { tool } from '../../tools/tool.js';
import { callTools, ScriptedModel } from '../scripted-model.js';
import { contractEvent } from './contract-event.js';
import { type ContractCaseApi, rejectionOf } from './contract-case.js';
import { jsonRoundTrip, randomJsonValue, seededRandom } from './json-value-generator.js';

/** Values that are not JSON, each made fresh (a cycle cannot be shared between tests). */
export const NON_JSON_VALUES: readonly (readonly [string, () => unknown])[] = [
  ['a BigInt', () => 10n],
  ['a function', () => () => 1],
  ['a symbol', () => Symbol('s')],
  ['undefined inside an object', () => ({ a: undefined })],
  ['undefined inside an array', () => [1, undefined]],
  ['a Date', () => new Date(0)],
  ['a Map', () => new Map([['a', 1]])],
  ['a Set', () => new Set([1])],
  ['a RegExp', () => /x/g],
  [
    'a class instance',
    () =>
      new (class Point {
        x = 1;
      })(),
  ],
  ['a typed array', () => new Uint8Array([1, 2])],
  ['NaN', () => NaN],
  ['Infinity', () => Infinity],
  ['-Infinity', () => -Infinity],
  [
    'a circular value',
    () => {
      const a: Record<string, unknown> = { b: {} };
      (a.b as Record<string, unknown>).up = a;
      return a;
    },
  ],
  [
    'an array hole',
    () => {
      const a = [1];
      a[2] = 3;
      return a;
    },
  ],
  ['a string with a lone surrogate', () => 'x\uD800'],
];

/** An agent that yields one event with these state changes. */
function emitting(actions: { stateDelta?: Record<string, unknown>; stateAppend?: Record<string, unknown[]> }): Agent {
  return {
    name: 'emitter',
    description: '',
    async *run(ctx) {
      yield ctx.event({ message: { role: 'assistant', content: [{ type: 'text', text: 'hi' }] }, actions });
    },
  };
}

/** The JSON-state rules: values round-trip exactly on every store; anything else is refused and nothing stored. */
export function stateValueCases({ it, expect, withStore, app }: ContractCaseApi): void {
  const key = (id: string, userId = 'u1'): SessionKey => ({ appName: app, userId, id });
  const expectStateValueError = async (promise: Promise<unknown>, path: string, what: string) => {
    const error = await rejectionOf(promise);
    expect({ what, name: error?.name }).toEqual({ what, name: 'StateValueError' });
    expect(error?.message).toContain(path);
  };

  it(
    'reads back JSON state exactly as written (seeded random values; -0 reads as 0)',
    withStore(async (store) => {
      const random = seededRandom(20261123);
      for (let round = 0; round < 12; round++) {
        const [a, b, c, d, e, f] = Array.from({ length: 6 }, () => randomJsonValue(random));
        const shared = { same: randomJsonValue(random) };
        const initial = { own: a, 'user:u': b, 'app:a': c, twice: { x: shared, y: shared } };
        const id = `r${round}`;
        await store.create({ ...key(id), state: initial }, [contractEvent('first', { actions: { stateDelta: { later: d } } })]);
        await store.appendEvents(
          key(id),
          [contractEvent('next', { actions: { stateDelta: { 'user:v': e }, stateAppend: { list: [f, e] } } })],
          { expectedVersion: 1 },
        );
        const expected = jsonRoundTrip({ ...initial, later: d, 'user:v': e, list: [f, e] }) as Record<string, unknown>;
        const got = await store.get(key(id));
        for (const k of Object.keys(expected)) expect({ round, k, value: got?.state[k] }).toEqual({ round, k, value: expected[k] });
        // What the stored event carries is what a reload folds.
        expect(got?.events[0]?.actions?.stateDelta).toEqual(jsonRoundTrip({ later: d }));
      }
    }),
  );

  it(
    'stores -0 as 0 and keeps "__proto__" and "constructor" as ordinary keys inside values',
    withStore(async (store) => {
      const value = JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": 1}, "n": -0}') as Record<string, unknown>;
      value.zero = -0;
      await store.create({ ...key('p'), state: { v: value, 'user:z': -0 } });
      const got = await store.get(key('p'));
      expect(Object.is(got?.state['user:z'], 0)).toBe(true);
      const v = (got?.state.v ?? {}) as Record<string, unknown>;
      expect(Object.is(v.zero, 0)).toBe(true);
      expect(Object.keys(got?.state.v as object).sort()).toEqual(['__proto__', 'constructor', 'n', 'zero']);
      expect(Object.getPrototypeOf(got?.state.v)).toBe(Object.prototype);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }),
  );

  for (const [label, make] of NON_JSON_VALUES)
    it(
      `refuses ${label} in state with StateValueError, storing nothing`,
      withStore(async (store) => {
        await store.create(key('witness'));
        await expectStateValueError(
          store.create({ ...key('new'), state: { 'user:bad': { items: [0, 1, make()] } } }),
          'user:bad.items[2]',
          'create state',
        );
        expect(await store.get(key('new'))).toBeUndefined();
        await store.create(key('s'), [contractEvent('one')]);
        const good = contractEvent('good', { actions: { stateDelta: { 'user:good': 1, 'app:good': 1 } } });
        const bad = contractEvent('bad', { actions: { stateDelta: { 'app:bad': 1, deep: { items: [0, 1, make()] } } } });
        await expectStateValueError(store.appendEvents(key('s'), [good, bad], { expectedVersion: 1 }), 'deep.items[2]', 'stateDelta');
        const appended = contractEvent('bad', { actions: { stateDelta: { 'user:bad': 1 }, stateAppend: { log: [0, make()] } } });
        await expectStateValueError(store.appendEvents(key('s'), [appended], { expectedVersion: 1 }), 'log[1]', 'stateAppend');
        const got = await store.get(key('s'));
        expect(got?.version).toBe(1);
        const witness = await store.get(key('witness'));
        for (const k of ['user:good', 'app:good', 'app:bad', 'user:bad']) expect({ k, v: witness?.state[k] }).toEqual({ k, v: undefined });
      }),
    );

  it(
    'refuses undefined as a whole state value (set null to clear a key)',
    withStore(async (store) => {
      await expectStateValueError(store.create({ ...key('u'), state: { gone: undefined } }), 'gone is undefined', 'create');
      await store.create(key('u'));
      await expectStateValueError(
        store.appendEvents(key('u'), [contractEvent('x', { actions: { stateDelta: { 'user:gone': undefined } } })], { expectedVersion: 0 }),
        'user:gone is undefined',
        'append',
      );
      await store.appendEvents(key('u'), [contractEvent('x', { actions: { stateDelta: { 'user:gone': null } } })], { expectedVersion: 0 });
      expect((await store.get(key('u')))?.state['user:gone']).toBeNull();
    }),
  );

  it(
    'fails a run whose agent sets a BigInt or a circular value: status failed, StateValueError, nothing of it stored',
    withStore(async (store) => {
      const cycle: Record<string, unknown> = {};
      cycle.self = cycle;
      for (const [id, value, path] of [
        ['big', 10n, 'user:big'],
        ['cycle', cycle, 'user:big.self'],
      ] as const) {
        const runner = new Runner({ agent: emitting({ stateDelta: { 'user:big': value, own: 1 } }), appName: app, sessionStore: store });
        const result = await runner.run({ userId: 'u1', sessionId: id, input: 'go' }).result();
        expect(result.status).toBe('failed');
        expect(result.error?.name).toBe('StateValueError');
        expect(result.error?.message).toContain(`${path} is`);
        const got = await store.get(key(id));
        expect(got?.state['user:big']).toBeUndefined();
        expect(got?.state.own).toBeUndefined();
        expect(got?.events.some((e) => e.actions?.stateDelta)).toBe(false);
        expect(got?.events.at(-1)?.error?.name).toBe('StateValueError');
      }
    }),
  );

  it(
    'stores none of the state writes of a tool call that throws',
    withStore(async (store) => {
      const charge = tool({
        name: 'charge',
        description: 'charges, then fails',
        parameters: z.object({}),
        execute: (_args, ctx) => {
          ctx.state.set('user:credits', 5);
          ctx.state.set('note', 'written before the throw');
          throw new Error('payment gateway down');
        },
      });
      const model = new ScriptedModel({ responses: [callTools({ name: 'charge' }), 'could not charge'] });
      const runner = new Runner({ agent: new ReActAgent({ name: 'a', model, tools: [charge] }), appName: app, sessionStore: store });
      const result = await runner.run({ userId: 'u1', sessionId: 'pay', input: 'charge me' }).result();
      expect(result.status).toBe('completed');
      await store.create(key('other'));
      for (const id of ['pay', 'other']) {
        const got = await store.get(key(id));
        expect(got?.state['user:credits']).toBeUndefined();
        expect(got?.state.note).toBeUndefined();
      }
      const toolEvent = (await store.get(key('pay')))?.events.find((e) => e.message?.role === 'tool');
      expect(toolEvent?.actions?.stateDelta).toBeUndefined();
      expect(JSON.stringify(toolEvent?.message)).toContain('payment gateway down');
    }),
  );

  it(
    'gives a run the same state during the run as after a reload (-0 included)',
    withStore(async (store) => {
      const value = { n: -0, list: [1, -0, { deep: -0 }], text: '😀' };
      let seen: unknown;
      const save = tool({
        name: 'save',
        description: 'saves a value',
        parameters: z.object({}),
        execute: (_args, ctx) => {
          ctx.state.set('user:value', value);
          seen = ctx.state.get('user:value');
          return 'saved';
        },
      });
      const model = new ScriptedModel({ responses: [callTools({ name: 'save' }), 'done'] });
      const runner = new Runner({ agent: new ReActAgent({ name: 'a', model, tools: [save] }), appName: app, sessionStore: store });
      expect((await runner.run({ userId: 'u1', sessionId: 'same', input: 'save' }).result()).status).toBe('completed');
      expect(seen).toEqual(jsonRoundTrip(value));
      expect((await store.get(key('same')))?.state['user:value']).toEqual(seen);
    }),
  );
}
