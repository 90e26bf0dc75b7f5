import type { Agent } from '@replan/core';
import type { PlanMode } from '../modes/plan-mode.js';
import type { PlanCheck } from '../policy/plan-check.js';
import type { ResolvedPlanMemory } from './plan-memory-options.js';
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

/**
 * What a plan–execute agent binds its parts to: its keys and part names, its mode, and the
 * settings that live on the agent only (`checkPlan`, `stepConcurrency`).
 */
export interface PartBinding extends PartScope {
  readonly mode: PlanMode;
  readonly checkPlan?: PlanCheck | undefined;
  readonly stepConcurrency?: number | undefined;
  /** The replanner offers `undo` (steps to compensate): the executor has tools with `compensate`. */
  readonly undo?: boolean | undefined;
  /** `memory`: the planner recalls (and may reuse) past plans. */
  readonly memory?: ResolvedPlanMemory | undefined;
}

/**
 * A part built by `createPlanner`, `createExecutor` or `createReplanner`: the plan–execute agent
 * binds it to its keys, mode and settings. An agent you wrote yourself runs as it is.
 */
export interface PlanPart extends Agent {
  /** This part inside a plan–execute agent. @internal */
  bind(binding: PartBinding): Agent;
}

/** True for a part from one of the `create*` functions (it can be bound), false for an agent of your own. */
export const isPlanPart = (agent: Agent): agent is PlanPart => typeof (agent as Partial<PlanPart>).bind === 'function';
