import { MemoryError } from '../memory-error.js';
import type { Embedder } from '../memory-store.js';

/** A vector as stored: its numbers and its length (norm), computed once. */
export interface Vector {
  readonly values: Float64Array;
  readonly norm: number;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  return typeof value;
}

/**
 * Calls the embedder and checks what it returned: one vector per text, every one a non-empty array
 * of finite numbers, all of one length — `dimensions` when the store already knows it (from the
 * vectors it holds). Anything else, and the embedder throwing, is `MemoryError('embedder')`:
 * nothing is stored and the search is not answered from a vector that cannot be compared.
 */
export async function embedChecked(embed: Embedder, texts: readonly string[], dimensions: number | undefined): Promise<Vector[]> {
  let result: unknown;
  try {
    result = await embed(texts);
  } catch (error) {
    throw new MemoryError(
      'embedder',
      `The embedder failed: ${(error as Error)?.message ?? String(error)}. Check its connection and key; lexical search works without one.`,
      { cause: error },
    );
  }
  if (!Array.isArray(result) || result.length !== texts.length)
    throw new MemoryError(
      'embedder',
      `The embedder returned ${describe(result)} for ${texts.length} text(s): it must return one vector (number[]) per text, in order.`,
    );
  let expected = dimensions;
  return result.map((vector: unknown, i) => {
    if (!Array.isArray(vector) || vector.length === 0 || !vector.every((x) => typeof x === 'number' && Number.isFinite(x)))
      throw new MemoryError('embedder', `The embedder's vector ${i} is ${describe(vector)}, not a non-empty array of finite numbers.`);
    expected ??= vector.length;
    if (vector.length !== expected)
      throw new MemoryError(
        'embedder',
        `The embedder returned a vector of ${vector.length} dimensions where ${expected} were expected` +
          (dimensions === undefined
            ? ' (its vectors differ in length).'
            : ' (the store holds vectors of that length: was the embedding model changed?).'),
      );
    return toVector(vector as number[]);
  });
}

/** A stored array as a `Vector`. */
export function toVector(values: readonly number[]): Vector {
  const array = Float64Array.from(values);
  let sum = 0;
  for (const x of array) sum += x * x;
  return { values: array, norm: Math.sqrt(sum) };
}

/** Cosine similarity (0 when either vector is all zeros). */
export function cosine(a: Vector, b: Vector): number {
  if (a.norm === 0 || b.norm === 0) return 0;
  const x = a.values;
  const y = b.values;
  let dot = 0;
  for (let i = 0; i < x.length; i++) dot += x[i]! * y[i]!;
  return dot / (a.norm * b.norm);
}
