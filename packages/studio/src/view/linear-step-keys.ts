import type { StepStatus } from '../../web/src/wire-types.js';

/** One step of a linear plan version, before it has a key. */
export interface LinearEntry {
  readonly label: string;
  readonly status: StepStatus;
  /** The step number it ran (or runs) as; absent while it waits. */
  readonly number?: number;
  /** While it waits: the number it runs as if the plan goes on unchanged. */
  readonly predicted?: number;
}

/** A step across plan versions: where it first appeared, and the number it ran as (or will, in the latest version). */
interface StepIdentity {
  readonly first: string;
  number?: number;
}

/**
 * The keys of the steps of consecutive linear plan versions (`versions[r]` is plan version
 * `firstVersion + r`, its entries in plan order), so that one step keeps one key in every version:
 * a replanned plan lists only the steps still to run, and a step still waiting in one version
 * continues as the first waiting step of the next with the same text. A step that ran (or runs)
 * is `n<stepNumber>`, as its events are numbered; a step of the latest version still waiting is
 * `n<the number it will run as>`; a step dropped before it ran is `v<version>.<position>`, where
 * it first appeared.
 */
export function linearStepKeys(versions: readonly (readonly LinearEntry[])[], firstVersion: number): string[][] {
  let waiting: { label: string; id: StepIdentity }[] = [];
  const identities = versions.map((entries, r) => {
    const unmatched = [...waiting];
    const ids = entries.map((entry, i): StepIdentity => {
      const at = unmatched.findIndex((w) => w.label === entry.label);
      const id = at >= 0 ? (unmatched.splice(at, 1)[0] as { id: StepIdentity }).id : { first: `v${firstVersion + r}.${i + 1}` };
      if (entry.number !== undefined) id.number = entry.number;
      return id;
    });
    waiting = entries.flatMap((entry, i) => (entry.number === undefined ? [{ label: entry.label, id: ids[i] as StepIdentity }] : []));
    return ids;
  });
  // The latest version's waiting steps: the numbers they will run as, unless the plan changes.
  const latest = versions.at(-1) ?? [];
  latest.forEach((entry, i) => {
    const id = identities.at(-1)?.[i];
    if (id && id.number === undefined && entry.predicted !== undefined) id.number = entry.predicted;
  });
  return identities.map((ids) => ids.map((id) => (id.number !== undefined ? `n${id.number}` : id.first)));
}
