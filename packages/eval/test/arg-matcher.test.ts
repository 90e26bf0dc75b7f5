import { describe, expect, it } from 'vitest';
import { mismatch } from '../src/matchers/arg-matcher.js';
import { arg } from '@replan/eval';

describe('argument matchers', () => {
  it('plain values compare equal (NaN too); objects and arrays field by field', () => {
    expect(mismatch('Lyon', 'Lyon')).toBeUndefined();
    expect(mismatch(3, 3)).toBeUndefined();
    expect(mismatch(Number.NaN, Number.NaN)).toBeUndefined();
    expect(mismatch(null, null)).toBeUndefined();
    expect(mismatch(3, '3')).toBe('expected 3, got "3"');
    expect(mismatch({ a: [1, { b: true }] }, { a: [1, { b: true }] })).toBeUndefined();
    expect(mismatch({ a: [1, { b: true }] }, { a: [1, { b: false }] })).toBe('a[1].b: expected true, got false');
    expect(mismatch([1, 2], [1])).toBe('expected 2 items, got 1');
    expect(mismatch({ a: 1 }, { a: 1, b: 2 })).toBe('b: not expected (got 2)');
    expect(mismatch({ a: 1, b: 2 }, { a: 1 })).toBe('b: missing');
    expect(mismatch({ a: 1 }, 'text')).toBe('expected an object, got "text"');
  });

  it('RegExp, functions, arg.any and arg.ignore', () => {
    expect(mismatch(/^ly/i, 'Lyon')).toBeUndefined();
    expect(mismatch(/^ly/i, 42)).toBe('expected a string matching /^ly/i, got 42');
    // A global RegExp keeps lastIndex between tests; the matcher must not depend on it.
    const global = /o/g;
    expect([mismatch(global, 'Lyon'), mismatch(global, 'Lyon')]).toEqual([undefined, undefined]);
    const positive = (v: unknown) => typeof v === 'number' && v > 0;
    expect(mismatch(positive, 2)).toBeUndefined();
    expect(mismatch(positive, -2)).toBe('-2 does not satisfy positive');
    expect(
      mismatch(() => {
        throw new Error('boom');
      }, 1),
    ).toBe('the matcher threw boom');
    expect(mismatch(arg.any('string'), 'x')).toBeUndefined();
    expect(mismatch(arg.any(String), 3)).toBe('expected any string, got 3');
    expect(mismatch(arg.any('array'), [])).toBeUndefined();
    expect(mismatch(arg.any(Object), [])).toBe('expected any object, got []');
    expect(mismatch(arg.any(Date), new Date(0))).toBeUndefined();
    expect(mismatch(arg.any(), undefined)).toBe('expected anything, got undefined');
    expect(mismatch(arg.any(), null)).toBeUndefined();
    expect(mismatch({ id: arg.ignore, q: 'x' }, { id: 'call_9f', q: 'x' })).toBeUndefined();
  });
});
