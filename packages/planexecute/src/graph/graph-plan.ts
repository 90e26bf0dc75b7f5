import { z } from 'zod';
import { stepEstimateSchema } from '../budget/step-estimate.js';

/** A step id: letters, digits and `_` only, so a `$id` reference ends where the id ends. */
export const STEP_ID_PATTERN = /^[A-Za-z0-9_]+$/;

/** One step of a graph plan. */
export const graphStepSchema = z.object({
  id: z
    .string()
    .regex(STEP_ID_PATTERN, 'a step id may only hold letters, digits and "_" (e.g. "1", "search_a")')
    .describe('A short unique id for this step, e.g. "1", "2", "search_a" (letters, digits, "_").'),
  task: z.string().describe('What to do, self-contained. Write $id (or ${id}) where the result of a step it depends on must be inserted.'),
  dependsOn: z
    .array(z.string())
    .describe(
      'Ids of the steps whose results this step needs; [] when it needs none. Steps without a dependency between them run at the same time.',
    ),
  estimate: stepEstimateSchema.optional(),
});

/**
 * The graph plan (`mode: 'graph'`): steps with ids and dependencies, validated as a DAG. Steps
 * whose dependencies are done run at once; a step sees only the results it depends on.
 */
export const graphPlanSchema = z.object({
  steps: z.array(graphStepSchema).describe('The steps still to run, as a dependency graph. Order does not matter; dependsOn does.'),
});

export type GraphStep = z.output<typeof graphStepSchema>;
export type GraphPlan = z.output<typeof graphPlanSchema>;

/**
 * The steps of a stored graph plan (an empty list when it has none), as stored: fields a plan
 * schema adds to a step (e.g. plan grants' `tools` and `args`) are kept.
 */
export function graphStepsOf(plan: unknown): readonly GraphStep[] {
  const parsed = graphPlanSchema.safeParse(plan);
  return parsed.success ? (plan as { steps: readonly GraphStep[] }).steps : [];
}
