import type { PlanExecuteKeys } from './session-keys.js';

/** The names a plan–execute agent gives its parts (those built without a `name`). */
export interface PartNames {
  readonly planner: string;
  readonly executor: string;
  readonly replanner: string;
  readonly loop: string;
}

/** What a plan–execute agent hands its parts: its state keys and the default names of the parts. */
export interface PartScope {
  readonly keys: PlanExecuteKeys;
  readonly names: PartNames;
}
