import { z } from 'zod';
import type { ToolSpec } from '@replan/core';
import { toolParametersSchema } from '@replan/core/agent-kit';
import { defaultPlanSchema, planJsonSchema } from './base/plan-schema.js';

const PLAN_DESCRIPTION =
  'Write the plan: the steps still to do, in order. Each step must be clear, actionable and self-contained. ' +
  'Nothing is executed by this call; the steps are run one by one afterwards.';

/** The default arguments of the `respond` tool: the answer for the user. */
export const defaultRespondSchema = z.object({
  response: z.string().describe('The complete answer to give the user.'),
});

/** The `plan` tool for a plan schema (the planner forces it; the replanner offers it). */
export function planToolFor(planSchema: z.ZodType, agentName = 'plan tool'): ToolSpec {
  return { name: 'plan', description: PLAN_DESCRIPTION, parameters: planJsonSchema(planSchema, agentName) };
}

/** The `respond` tool for an answer schema (the replanner offers it). */
export function respondToolFor(respondSchema: z.ZodType): ToolSpec {
  return {
    name: 'respond',
    description: 'Give the final answer to the user. Use it when the objective is met (or cannot be met) with what the steps found.',
    parameters: toolParametersSchema('respond', respondSchema),
  };
}

/**
 * The `plan` tool with the default plan schema (`{ steps: string[] }`): its arguments are the plan.
 * The built-in planner forces it and the replanner offers it; pass it in `ModelRequest.tools` when
 * you make a planner call of your own (with `toolChoice: { name: 'plan' }` to force it). A planner
 * with its own `planSchema` uses a `plan` tool made from that schema instead.
 */
export const PlanTool: ToolSpec = planToolFor(defaultPlanSchema);

/**
 * The `respond` tool with the default answer schema (`{ response: string }`): the replanner offers it
 * beside `PlanTool`, and its arguments are the final answer. Use it in a replanner call of your own;
 * a replanner with its own `respondSchema` uses a `respond` tool made from that schema instead.
 */
export const RespondTool: ToolSpec = respondToolFor(defaultRespondSchema);
