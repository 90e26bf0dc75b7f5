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
  let text: string | undefined;
  try {
    text = JSON.stringify(output);
  } catch (error) {
    return { ok: false, problem: error instanceof Error ? error.message : String(error) };
  }
  if (text === undefined) return { ok: false, problem: `${typeof output} has no JSON form` }; // a function or a symbol
  return { ok: true, value: JSON.parse(text) };
}
