/** A small seeded pseudo-random generator (mulberry32): the same seed gives the same values everywhere. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NUMBERS = [0, -0, 1, -1, 0.1, -2.5e-300, 5e-324, 1.7976931348623157e308, -1e21, 2 ** 53 - 1, -(2 ** 53), 123456.789];
const STRINGS = [
  '',
  'plain',
  'ünïcödé ✓',
  '😀 astral 𝄞',
  '"quotes" \\ back\nnew\tline',
  '\u0000nul',
  '\u2028\u2029',
  '漢字かな',
  'a'.repeat(300),
];
// Keys that trip naive code: prototype names, empty, dots, brackets, non-ASCII.
const KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', '', 'a.b', '[0]', 'ключ', '😀', 'k'];

/** Sets `key` as an own data property, so `__proto__` stays a key (plain assignment would change the prototype). */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * A random JSON value: nested objects and arrays (empty ones too), unicode strings (astral
 * characters, never lone surrogates), `-0`, very large and very small finite numbers, and keys
 * such as `__proto__` and `constructor`.
 */
export function randomJsonValue(random: () => number, depth = 0): unknown {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const roll = random();
  if (depth >= 4 || roll < 0.45) {
    const scalar = random();
    if (scalar < 0.35) return pick(NUMBERS) * (random() < 0.5 ? 1 : -1);
    if (scalar < 0.7) return pick(STRINGS);
    if (scalar < 0.85) return random() < 0.5;
    return null;
  }
  const size = Math.floor(random() * 4);
  if (roll < 0.7) return Array.from({ length: size }, () => randomJsonValue(random, depth + 1));
  const object: Record<string, unknown> = {};
  for (let i = 0; i < size; i++) put(object, pick(KEYS) + (random() < 0.3 ? String(i) : ''), randomJsonValue(random, depth + 1));
  return object;
}

/** `value` as a JSON round trip gives it back (`-0` → `0`), with `__proto__` keys kept as own keys. */
export function jsonRoundTrip(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}
