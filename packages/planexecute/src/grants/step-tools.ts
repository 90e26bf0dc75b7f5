import { z } from 'zod';
import { defaultPlanSchema } from '../base/plan-schema.js';
import { stepEstimateSchema } from '../budget/step-estimate.js';
import { graphPlanSchema, graphStepSchema } from '../graph/graph-plan.js';

/**
 * The fields a plan step gains with `review: { plan: true, grants: true }`: the tools the step
 * will call and, per tool, the arguments it will call it with. Approving the plan approves those
 * calls in that step (see `planGrants`).
 */
const stepToolFields = {
  tools: z
    .array(z.string())
    .optional()
    .describe(
      'Optional: the names of the tools this step will call. Approving the plan approves their calls in this step, so name only tools the step needs.',
    ),
  args: z
    .record(z.string(), z.record(z.string(), z.unknown()))
    .optional()
    .describe(
      'Optional: per tool named in "tools", the arguments the step will pass, e.g. {"send_email": {"to": "ann@example.com"}}. A call with other values for these fields is asked about again; fields not given are free.',
    ),
};

/** A linear step with tools: an object with the step's text as `task` (and, as a graph step, its own `estimate`). */
const linearToolStepSchema = z.object({
  task: z.string().describe('What to do, self-contained.'),
  ...stepToolFields,
  estimate: stepEstimateSchema.optional(),
});

/**
 * The linear plan with grants on: a step is its text, or `{ task, tools?, args?, estimate? }`. It
 * extends the default plan so `estimates` stays (a plain object schema would strip it, and the
 * plan review's forecast would lose every estimate).
 */
export const grantLinearPlanSchema = defaultPlanSchema.extend({
  steps: z
    .array(z.union([z.string(), linearToolStepSchema]))
    .describe('The steps still to do, in order. Each one clear, self-contained and executable on its own.'),
});

/** The graph plan with grants on: each step may carry `tools` and `args`. */
export const grantGraphPlanSchema = z.object({
  steps: z
    .array(graphStepSchema.extend(stepToolFields))
    .describe('The steps still to run, as a dependency graph. Order does not matter; dependsOn does.'),
});

/** The plan schema with the step tool fields, for a mode's default schema; any other schema is kept (it may carry `tools`/`args` itself). */
export function grantPlanSchema(schema: z.ZodType): z.ZodType {
  if (schema === defaultPlanSchema) return grantLinearPlanSchema;
  if (schema === graphPlanSchema) return grantGraphPlanSchema;
  return schema;
}

/** What a step says it will call: tool names, and the stated arguments per tool (none for a plain-text step). */
export interface StepTools {
  readonly tools: readonly string[];
  readonly args: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The tools and arguments a stored step names (read as plain JSON, whatever its schema). */
export function stepToolsOf(step: unknown): StepTools {
  if (!isRecord(step)) return { tools: [], args: {} };
  const tools = Array.isArray(step.tools) ? step.tools.filter((t): t is string => typeof t === 'string') : [];
  const args: Record<string, Readonly<Record<string, unknown>>> = {};
  if (isRecord(step.args)) for (const [tool, stated] of Object.entries(step.args)) if (isRecord(stated)) args[tool] = stated;
  return { tools, args };
}

/**
 * A step as grants match it: its JSON without a graph `id` (a failed graph step retried under a
 * new id with the same content is the same step, as review's diff counts it) and without its
 * `estimate` (a revision that only re-estimates is not reviewed again, so it keeps its grant).
 */
export function grantKey(step: unknown): string {
  if (!isRecord(step)) return JSON.stringify(step) ?? String(step);
  const { id: _id, estimate: _estimate, ...rest } = step;
  return JSON.stringify(rest);
}
