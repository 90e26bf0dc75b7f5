import { z } from 'zod';
import { ConfigurationError } from '@replan/core';
import { toolParametersSchema } from '@replan/core/agent-kit';
import { stepEstimateSchema } from '../budget/step-estimate.js';

/** The default plan: an ordered list of steps, each a self-contained instruction. */
export const defaultPlanSchema = z.object({
  steps: z.array(z.string()).describe('The steps still to do, in order. Each one clear, self-contained and executable on its own.'),
  estimates: z.array(stepEstimateSchema).optional().describe('Optional: estimates[i] is what steps[i] is likely to use.'),
});

/** The default plan type. A custom `planSchema` may add fields and use objects as steps. */
export type DefaultPlan = z.output<typeof defaultPlanSchema>;

/**
 * A plan schema's JSON Schema, checked for the one thing the agents rely on: a `steps` array
 * (the executor runs `steps[0]`). Anything else in a custom plan is carried as plain JSON.
 */
export function planJsonSchema(schema: z.ZodType, agentName: string): Record<string, unknown> {
  let json: Record<string, unknown>;
  try {
    json = toolParametersSchema('plan', schema);
  } catch (error) {
    throw new ConfigurationError(`${agentName}: planSchema must be a zod v4 z.object(...). ${(error as Error).message}`);
  }
  const steps = (json.properties as Record<string, { type?: unknown }> | undefined)?.steps;
  if (steps?.type !== 'array')
    throw new ConfigurationError(
      `${agentName}: planSchema needs a "steps" array field (the executor runs steps[0]), e.g. z.object({ steps: z.array(z.string()) }).`,
    );
  return json;
}

/** The steps of a plan as stored (an empty list when the plan has none). */
export function stepsOf(plan: unknown): readonly unknown[] {
  const steps = (plan as { steps?: unknown } | undefined)?.steps;
  return Array.isArray(steps) ? steps : [];
}

/** A step as a model reads it: strings as they are, structured steps as JSON. */
export const stepText = (step: unknown): string => (typeof step === 'string' ? step : JSON.stringify(step));
