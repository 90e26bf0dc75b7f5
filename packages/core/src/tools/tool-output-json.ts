/**
 * A tool's output as every store keeps it and as the model is shown it: its JSON form. A live run
 * and a run resumed from any store then see the same value (a `Date` is its ISO string, a class
 * instance its enumerable data, `NaN` is `null`, a `Map` is `{}`, as JSON writes them), and a value
 * JSON cannot write — a BigInt, a cycle — is caught at the call, not by the store after the fact.
 */
export type ToolOutputJson = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problem: string };

export function toolOutputJson(output: unknown): ToolOutputJson {
  // Primitives are their own JSON form (the common case, and the one every ReAct iteration pays).
  switch (typeof output) {
    case 'string':
    case 'boolean':
      return { ok: true, value: output };
    case 'number':
      return { ok: true, value: Number.isFinite(output) ? (output === 0 ? 0 : output) : null };
    case 'undefined':
      return { ok: true, value: null }; // "no output": an explicit null the model and every store keep
  }
  if (output === null) return { ok: true, value: null };
  // Most outputs are already plain data: a walk (no string built, nothing copied) tells, and the
  // round trip below is left to the rest (dates, instances, NaN, undefined fields, cycles).
  if (isPlainJson(output, 0)) return { ok: true, value: output };
  let text: string | undefined;
  try {
    text = JSON.stringify(output);
  } catch (error) {
    return { ok: false, problem: error instanceof Error ? error.message : String(error) };
  }
  if (text === undefined) return { ok: false, problem: `${typeof output} has no JSON form` }; // a function or a symbol
  return { ok: true, value: JSON.parse(text) };
}

/** Deeper than this, the walk gives up and the round trip decides (it also catches cycles). */
const MAX_WALK_DEPTH = 64;

/** Whether `value` is its own JSON form: strings, finite numbers (not -0), booleans, null, arrays and plain objects of these. */
function isPlainJson(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && !Object.is(value, -0);
    case 'object': {
      if (value === null) return true;
      if (depth >= MAX_WALK_DEPTH) return false;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!(i in value) || !isPlainJson(value[i], depth + 1)) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) return false;
      for (const key in value) if (!isPlainJson((value as Record<string, unknown>)[key], depth + 1)) return false;
      return true;
    }
    default:
      return false;
  }
}
