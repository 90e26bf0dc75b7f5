import { StateValueError } from '../errors/state-value-error.js';
import { isWellFormedString } from './session-key-rules.js';
import { TEMP_PREFIX } from './state-scope.js';

/** Deeper values are refused: a value this deep is a bug, and walking it would overflow the stack. */
export const MAX_STATE_DEPTH = 500;

type Segment = string | number;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function formatPath(key: string, segments: readonly Segment[]): string {
  let out = key.length > 60 ? `${key.slice(0, 60)}…` : key;
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (IDENTIFIER.test(s) && s.length <= 40) out += `.${s}`;
    else out += `[${JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s)}]`;
  }
  return out;
}

/** What was found and what to store instead, for a value that is not JSON. */
function diagnose(value: unknown): [found: string, hint: string] {
  switch (typeof value) {
    case 'undefined':
      return ['undefined', 'store null to clear a value, or leave the key out (undefined has no JSON form).'];
    case 'bigint':
      return ['a BigInt', 'store it as a string (value.toString()) or, when it is small enough, a number.'];
    case 'function':
      return ['a function', 'store data, not code: remove it, or store a name that your code maps to the function.'];
    case 'symbol':
      return ['a symbol', 'store a string instead.'];
    case 'number':
      return [String(value), 'store null or a string for a missing or infinite number.'];
    case 'string':
      return ['a string with a lone UTF-16 surrogate', 'store well-formed text (string.toWellFormed()).'];
  }
  if (value instanceof Date) return ['a Date', 'store date.toISOString() or date.getTime().'];
  if (value instanceof Map) return ['a Map', 'store Object.fromEntries(map) or [...map] (an array of pairs).'];
  if (value instanceof Set) return ['a Set', 'store [...set] (an array).'];
  if (value instanceof RegExp) return ['a RegExp', 'store regexp.source (and its flags) as strings.'];
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer)
    return [`a ${(value as object).constructor?.name ?? 'binary buffer'}`, 'store Array.from(bytes) or a base64 string.'];
  const proto = Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null;
  const name = proto && Object.hasOwn(proto, 'constructor') ? proto.constructor?.name : undefined;
  return [
    name ? `an instance of ${name}` : 'an object with a custom prototype',
    'store a plain object copy of its data ({ ...value } or a toJSON-like method of your own).',
  ];
}

class Walker {
  private readonly segments: Segment[] = [];
  private readonly ancestors = new Set<object>();

  constructor(private readonly key: string) {}

  fail(found: string, hint: string): never {
    throw new StateValueError(this.key, formatPath(this.key, this.segments), found, hint);
  }

  /** The value as it is stored: the same reference unless a `-0` inside had to become `0`. */
  value(value: unknown): unknown {
    switch (typeof value) {
      case 'string':
        if (!isWellFormedString(value)) this.fail(...diagnose(value));
        return value;
      case 'number':
        if (!Number.isFinite(value)) this.fail(...diagnose(value));
        return value === 0 ? 0 : value; // -0 becomes 0, as every JSON round trip would make it
      case 'boolean':
        return value;
      case 'object':
        if (value === null) return null;
        return this.object(value);
      default:
        return this.fail(...diagnose(value));
    }
  }

  private object(value: object): unknown {
    if (this.ancestors.has(value))
      this.fail('a circular reference (the value contains itself)', 'break the cycle: store ids that refer to other parts instead.');
    if (this.ancestors.size >= MAX_STATE_DEPTH) this.fail(`nested more than ${MAX_STATE_DEPTH} levels deep`, 'store a flatter value.');
    const proto = Object.getPrototypeOf(value) as unknown;
    const isArray = Array.isArray(value);
    if (isArray ? proto !== Array.prototype : proto !== Object.prototype && proto !== null) this.fail(...diagnose(value));
    if (Object.getOwnPropertySymbols(value).length)
      this.fail('an object with symbol-keyed properties', 'use string keys (JSON drops symbol keys).');
    this.ancestors.add(value);
    const out = isArray ? this.array(value as unknown[]) : this.record(value as Record<string, unknown>);
    this.ancestors.delete(value);
    return out;
  }

  private array(value: unknown[]): unknown[] {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      this.segments.push(i);
      if (!(i in value)) this.fail('an empty array slot', 'fill it with null (a hole reads back as null).');
      const item = value[i];
      const checked = this.value(item);
      this.segments.pop();
      if (!Object.is(checked, item)) {
        copy ??= value.slice();
        copy[i] = checked;
      }
    }
    return copy ?? value;
  }

  private record(value: Record<string, unknown>): Record<string, unknown> {
    let copy: Record<string, unknown> | undefined;
    for (const k of Object.keys(value)) {
      this.segments.push(k);
      if (!isWellFormedString(k)) this.fail('a property name with a lone UTF-16 surrogate', 'use well-formed property names.');
      const item = value[k];
      const checked = this.value(item);
      this.segments.pop();
      // defineProperty, not assignment: a "__proto__" key must stay a plain data property.
      if (!Object.is(checked, item)) {
        copy ??= { ...value };
        Object.defineProperty(copy, k, { value: checked, writable: true, enumerable: true, configurable: true });
      }
    }
    return copy ?? value;
  }
}

/**
 * Checks a state value and returns it as every store keeps it. Accepts only JSON: strings
 * (well-formed), finite numbers, booleans, null, arrays and plain objects (prototype
 * `Object.prototype` or `null`) of these; shared references are fine, cycles are not. Anything
 * else — `undefined` (also at the top: set `null` to clear a key), BigInt, functions, symbols,
 * Date, Map, Set, RegExp, typed arrays, class instances, NaN, ±Infinity, array holes — throws
 * `StateValueError` naming `key` and the path inside the value. `-0` is returned as `0` (a copy is
 * made only along the path that held it), so a run reads what it would read after a reload.
 * `temp:` keys are never stored and take any value unchecked.
 */
export function jsonStateValue(key: string, value: unknown): unknown {
  if (key.startsWith(TEMP_PREFIX)) return value;
  if (key === '__proto__')
    throw new StateValueError(key, key, 'a reserved name', 'choose another key ("__proto__" would change the state object itself).');
  if (!isWellFormedString(key)) throw new StateValueError(key, key, 'a key with a lone UTF-16 surrogate', 'use a well-formed key.');
  return new Walker(key).value(value);
}

/** Throws `StateValueError` unless `value` may be stored under `key` (see `jsonStateValue`). */
export function assertJsonState(key: string, value: unknown): void {
  jsonStateValue(key, value);
}

/** A `stateDelta` (or initial state) as it is stored: every value checked by `jsonStateValue`. */
export function jsonStateDelta<T extends Readonly<Record<string, unknown>> | undefined>(delta: T): T {
  if (!delta) return delta;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(delta)) {
    const value = delta[key];
    const checked = jsonStateValue(key, value);
    if (!Object.is(checked, value)) {
      copy ??= { ...delta };
      copy[key] = checked;
    }
  }
  return (copy ?? delta) as T;
}

/** A `stateAppend` as it is stored: each value must be an array; every item is checked. */
export function jsonStateAppend<T extends Readonly<Record<string, readonly unknown[]>> | undefined>(append: T): T {
  if (!append) return append;
  let copy: Record<string, readonly unknown[]> | undefined;
  for (const key of Object.keys(append)) {
    const items = append[key];
    if (key.startsWith(TEMP_PREFIX)) continue;
    if (!Array.isArray(items))
      throw new StateValueError(
        key,
        key,
        `${items === null ? 'null' : typeof items === 'object' ? 'an object' : typeof items} in stateAppend, not an array`,
        'stateAppend takes an array of the items to append.',
      );
    const checked = jsonStateValue(key, items);
    if (checked !== items) {
      copy ??= { ...append };
      copy[key] = checked as unknown[];
    }
  }
  return (copy ?? append) as T;
}
