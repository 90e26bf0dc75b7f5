import { describe, expect, it } from 'vitest';
import { StateValueError } from '@replan/core';

import { contractEvent } from '@replan/core/testing';
// Internals under test: state checks where values are set, and what is stored.
import { eventForStorage } from '../src/sessions/apply-state.js';
import { DeltaState } from '../src/sessions/delta-state.js';
import { MAX_STATE_DEPTH, assertJsonState, jsonStateValue } from '../src/sessions/json-state.js';
import { jsonStateAppend } from '../src/sessions/json-state.js';

function stateError(body: () => unknown): StateValueError {
  try {
    body();
  } catch (error) {
    expect(error).toBeInstanceOf(StateValueError);
    return error as StateValueError;
  }
  throw new Error('expected a StateValueError');
}

describe('JSON state values', () => {
  it('names the key, the path inside the value, what was found and what to store instead', () => {
    const error = stateError(() => assertJsonState('user:prefs', { items: [1, 2, new Date(0)] }));
    expect(error.key).toBe('user:prefs');
    expect(error.path).toBe('user:prefs.items[2]');
    expect(error.found).toBe('a Date');
    expect(error.message).toMatch(/user:prefs\.items\[2\] is a Date/);
    expect(error.message).toMatch(/toISOString/);
  });

  it.each([
    [10n, 'a BigInt', /toString/],
    [new Map(), 'a Map', /Object\.fromEntries/],
    [new Set(), 'a Set', /\[\.\.\.set\]/],
    [NaN, 'NaN', /null/],
    [-Infinity, '-Infinity', /null/],
    [new Uint8Array(1), 'a Uint8Array', /Array\.from/],
    [
      new (class Money {
        cents = 1;
      })(),
      'an instance of Money',
      /plain object/,
    ],
    [Object.create({ inherited: 1 }), 'an object with a custom prototype', /plain object/],
    [() => 1, 'a function', /code/],
  ])('refuses %s as %s with a hint', (value, found, hint) => {
    const error = stateError(() => assertJsonState('k', { v: value }));
    expect(error.path).toBe('k.v');
    expect(error.found).toBe(found);
    expect(error.message).toMatch(hint);
  });

  it('quotes odd property names in the path and shortens long ones', () => {
    const error = stateError(() => assertJsonState('k', { 'a b': { ['x'.repeat(100)]: [undefined] } }));
    expect(error.path).toBe(`k["a b"]["${'x'.repeat(40)}…"][0]`);
    expect(error.found).toBe('undefined');
  });

  it('accepts shared references, null-prototype objects and empty containers; refuses cycles and too-deep values', () => {
    const shared = { a: 1 };
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { x: [shared, shared] });
    const value = { one: shared, two: shared, bare, empty: [{}, []] };
    expect(jsonStateValue('k', value)).toBe(value);
    const cycle: unknown[] = [];
    cycle.push({ back: cycle });
    expect(stateError(() => assertJsonState('k', cycle)).path).toBe('k[0].back');
    let deep: unknown = 1;
    for (let i = 0; i <= MAX_STATE_DEPTH; i++) deep = [deep];
    expect(stateError(() => assertJsonState('k', deep)).found).toMatch(/nested more than/);
  });

  it("turns -0 into 0 by copying only the path that held it, never touching the caller's value", () => {
    const untouched = { big: 'x' };
    const value = { untouched, list: [1, { z: -0 }] };
    const checked = jsonStateValue('k', value) as typeof value;
    expect(checked).not.toBe(value);
    expect(checked.untouched).toBe(untouched);
    expect(Object.is((checked.list[1] as { z: number }).z, 0)).toBe(true);
    expect(Object.is((value.list[1] as { z: number }).z, -0)).toBe(true);
    expect(Object.is(jsonStateValue('k', -0), 0)).toBe(true);
  });

  it('keeps a "__proto__" key inside a value as data, and refuses "__proto__" as a state key', () => {
    const value = JSON.parse('{"__proto__": {"x": -0}}') as Record<string, unknown>;
    const checked = jsonStateValue('k', value) as Record<string, unknown>;
    expect(Object.getPrototypeOf(checked)).toBe(Object.prototype);
    expect(Object.keys(checked)).toEqual(['__proto__']);
    const inner = Object.getOwnPropertyDescriptor(checked, '__proto__')?.value as { x: number } | undefined;
    expect(Object.is(inner?.x, 0)).toBe(true);
    expect(stateError(() => assertJsonState('__proto__', 1)).found).toBe('a reserved name');
  });

  it('leaves temp: keys unchecked (they are never stored)', () => {
    const handle = new Map();
    expect(jsonStateValue('temp:handle', handle)).toBe(handle);
    expect(eventForStorage(contractEvent('x', { actions: { stateDelta: { 'temp:h': handle } } })).actions?.stateDelta).toBeUndefined();
  });

  it('requires stateAppend values to be arrays and checks each item', () => {
    expect(stateError(() => jsonStateAppend({ log: 'abc' as unknown as unknown[] })).found).toBe('string in stateAppend, not an array');
    expect(stateError(() => jsonStateAppend({ log: [1, 2n] })).path).toBe('log[1]');
  });

  it('makes DeltaState.set throw at once and record nothing; a savepoint drops later writes', () => {
    const state = new DeltaState({ base: 1 });
    state.set('a', 1);
    expect(() => state.set('b', { when: new Date() })).toThrow(StateValueError);
    expect(state.has('b')).toBe(false);
    const rollback = state.savepoint();
    state.set('c', 2);
    state.set('a', 3);
    rollback();
    expect(state.take()).toEqual({ a: 1 });
  });
});
