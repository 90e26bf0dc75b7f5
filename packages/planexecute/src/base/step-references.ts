/**
 * `$id` / `${id}` references in a graph step's task. An id is a run of letters, digits and `_`,
 * and a reference takes the whole run: `$10` names step `10`, never step `1` followed by `0`
 * (write `${1}0` for that). Substitution is a single pass, so a result that itself contains
 * `$2` is inserted as it is.
 */
const REFERENCE = /\$\{([A-Za-z0-9_]+)\}|\$([A-Za-z0-9_]+)/g;

/** A reference found in a task. */
export interface StepReference {
  readonly id: string;
  /** Written `${id}`: always meant as a reference, so an unknown id is an error. */
  readonly braced: boolean;
}

/** Every reference in a task, in order. */
export function referencesIn(task: string): StepReference[] {
  const out: StepReference[] = [];
  for (const m of task.matchAll(REFERENCE))
    out.push(m[1] !== undefined ? { id: m[1], braced: true } : { id: m[2] as string, braced: false });
  return out;
}

/**
 * Replaces each reference whose id has a result with that result. Other `$words` (e.g. `$100`)
 * are left as written. Returns the text and the ids that were substituted.
 */
export function substituteReferences(task: string, results: ReadonlyMap<string, string>): { text: string; used: Set<string> } {
  const used = new Set<string>();
  // A replacer function, so `$&`-style patterns inside a result are inserted literally.
  const text = task.replace(REFERENCE, (all, braced: string | undefined, bare: string | undefined) => {
    const id = (braced ?? bare) as string;
    const result = results.get(id);
    if (result === undefined) return all;
    used.add(id);
    return result;
  });
  return { text, used };
}

/** The task with each reference to a renamed id pointed at its new id, written as it was (`$id` or `${id}`). */
export function renameReferences(task: string, renames: ReadonlyMap<string, string>): string {
  return task.replace(REFERENCE, (all, braced: string | undefined, bare: string | undefined) => {
    const to = renames.get((braced ?? bare) as string);
    if (to === undefined) return all;
    return braced !== undefined ? `\${${to}}` : `$${to}`;
  });
}
