import type { Agent, AgentEvent, InvocationContext, Message, ModelRequest, ModelResponse } from '@replan/core';
import type { z } from 'zod';
import type { Parsed } from './decision-call.js';
import type { PlanMode } from '../modes/plan-mode.js';
import type { PlanExecuteKeys } from './session-keys.js';

/** What a planner or replanner decided: a plan (the first, or a revision), or the final answer's arguments. */
export type PlanDecision =
  | {
      readonly kind: 'plan';
      readonly plan: unknown;
      /** Streaming planner: what was wrong with the complete plan when the steps started before it are kept instead. */
      readonly problem?: string;
    }
  | { readonly kind: 'answer'; readonly args: unknown };

/** How a wrapper changes one decision (the streaming planner streams the call and reads the plan as it arrives). */
export interface DecideOptions {
  /** Makes each attempt's model call instead of the decider's own; untagged events are tagged `planning`. */
  readonly call?: (request: ModelRequest) => AsyncGenerator<AgentEvent, ModelResponse, undefined>;
  /** Reads a model answer, given what the decider's own reading (schema, mode, `checkPlan` aside) made of it. */
  readonly parse?: (message: Message, own: Parsed<PlanDecision>) => Parsed<PlanDecision>;
}

/** One decision and the model answer it came from. */
export interface Decided {
  readonly decision: PlanDecision;
  readonly response: ModelResponse;
  /** The conversation the decision was made for (the planner stores it as `UserInput`). */
  readonly userInput: readonly Message[];
}

/**
 * A planner or replanner from `createPlanner` / `createReplanner`, bound to its plan–execute agent:
 * what review, `checkPlan` and the streaming planner know of it. `decide` makes one decision (a
 * model call plus repairs, `checkPlan` run on each plan) and yields the events to store; `run`
 * stores the decision. Review runs it and holds the stored plan; the streaming planner calls
 * `decide` with its own streamed call.
 */
export interface PlanDecider extends Agent {
  readonly role: 'planner' | 'replanner';
  /** The state keys it writes. */
  readonly keys: PlanExecuteKeys;
  /** The plan mode it is bound to (validation, prompts, diffs). */
  readonly mode: PlanMode;
  /** The plan's zod schema (an edited plan in review is checked with it). */
  readonly planSchema: z.ZodType;
  decide(ctx: InvocationContext, options?: DecideOptions): AsyncGenerator<AgentEvent, Decided, undefined>;
}
