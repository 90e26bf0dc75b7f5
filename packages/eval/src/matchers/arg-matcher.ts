/**
 * How an expected tool-call argument is compared with the one the agent passed:
 *
 * - a plain value (string, number, boolean, `null`): equal (`Object.is`, so `NaN` matches `NaN`);
 * - a plain object or an array: the same keys / length, each entry compared with these rules;
 * - a `RegExp`: the value is a string the pattern matches;
 * - a function `(value) => boolean`: it returns `true`;
 * - `arg.any(kind)`: any value of that kind; `arg.ignore`: not compared.
 */
export type Matcher =
  | string
  | number
  | boolean
  | null
  | RegExp
  | ((value: unknown) => boolean)
  | SpecialMatcher
  | readonly Matcher[]
  | { readonly [key: string]: Matcher };

/** What a value's kind is for `arg.any`: a `typeof` name, `'array'`, or a class. */
export type ValueKind = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'null' | (abstract new (...args: never[]) => unknown);

const SPECIAL = Symbol.for('replan.eval.matcher');

/** A matcher built by `arg.any` or `arg.ignore`. */
export interface SpecialMatcher {
  readonly [SPECIAL]: true;
  /** How the matcher reads in a failure reason. */
  readonly description: string;
  readonly test: (value: unknown) => boolean;
}

function special(description: string, test: (value: unknown) => boolean): SpecialMatcher {
  return { [SPECIAL]: true, description, test };
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

const classKinds = new Map<unknown, string>([
  [String, 'string'],
  [Number, 'number'],
  [Boolean, 'boolean'],
  [Array, 'array'],
  [Object, 'object'],
]);

/** Argument matchers: `arg.any('string')` (or `arg.any(String)`, like Vitest's `expect.any`), `arg.ignore`. */
export const arg = {
  /** Any value of the kind (any value at all without one, `undefined` excepted). */
  any(kind?: ValueKind): SpecialMatcher {
    if (kind === undefined) return special('anything', (value) => value !== undefined);
    if (typeof kind === 'string') return special(`any ${kind}`, (value) => kindOf(value) === kind);
    const primitive = classKinds.get(kind);
    if (primitive) return special(`any ${primitive}`, (value) => kindOf(value) === primitive);
    return special(`any ${kind.name || 'instance'}`, (value) => value instanceof kind);
  },
  /** A field that is not compared (e.g. a timestamp or a generated id the agent passes). */
  ignore: special('ignored', () => true),
} as const;

export function isSpecialMatcher(value: unknown): value is SpecialMatcher {
  return typeof value === 'object' && value !== null && (value as Partial<SpecialMatcher>)[SPECIAL] === true;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof RegExp);

/**
 * Compares `actual` with the matcher; `undefined` when it matches, else where and why not
 * (`city: expected "Lyon", got "Porto"`).
 */
export function mismatch(matcher: Matcher, actual: unknown, at = ''): string | undefined {
  const where = at ? `${at}: ` : '';
  if (isSpecialMatcher(matcher)) return matcher.test(actual) ? undefined : `${where}expected ${matcher.description}, got ${show(actual)}`;
  if (matcher instanceof RegExp)
    return typeof actual === 'string' && new RegExp(matcher.source, matcher.flags.replace('g', '')).test(actual)
      ? undefined
      : `${where}expected a string matching ${matcher}, got ${show(actual)}`;
  if (typeof matcher === 'function') {
    let ok: boolean;
    try {
      ok = matcher(actual) === true;
    } catch (error) {
      return `${where}the matcher threw ${(error as Error).message ?? String(error)}`;
    }
    return ok ? undefined : `${where}${show(actual)} does not satisfy ${matcher.name || 'the matcher function'}`;
  }
  if (Array.isArray(matcher)) {
    if (!Array.isArray(actual)) return `${where}expected an array, got ${show(actual)}`;
    if (actual.length !== matcher.length) return `${where}expected ${matcher.length} items, got ${actual.length}`;
    for (let i = 0; i < matcher.length; i++) {
      const problem = mismatch(matcher[i] as Matcher, actual[i], `${at}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  }
  if (isPlainObject(matcher)) return objectMismatch(matcher as Record<string, Matcher>, actual, at);
  return Object.is(matcher, actual) ? undefined : `${where}expected ${show(matcher)}, got ${show(actual)}`;
}

/** Every field of `expected` matches, and `actual` has no field `expected` does not name. */
export function objectMismatch(expected: Readonly<Record<string, Matcher>>, actual: unknown, at = ''): string | undefined {
  const where = at ? `${at}: ` : '';
  if (!isPlainObject(actual)) return `${where}expected an object, got ${show(actual)}`;
  for (const [key, matcher] of Object.entries(expected)) {
    const path = at ? `${at}.${key}` : key;
    if (!(key in actual) && !(isSpecialMatcher(matcher) && matcher === arg.ignore)) return `${path}: missing`;
    const problem = mismatch(matcher, actual[key], path);
    if (problem) return problem;
  }
  for (const key of Object.keys(actual))
    if (!(key in expected)) return `${at ? `${at}.` : ''}${key}: not expected (got ${show(actual[key])})`;
  return undefined;
}

/** A value as it reads in a reason: JSON, cut to 80 characters. */
export function show(value: unknown): string {
  let text: string;
  try {
    text = value === undefined ? 'undefined' : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
