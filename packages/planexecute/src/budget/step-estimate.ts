import { z } from 'zod';

/**
 * What a plan step is expected to use, as the planner may write it (`estimate` on a graph step or an
 * object step, `estimates[i]` beside a linear plan's step texts). Only read for the forecast a plan
 * review shows against the budget: never enforced, the run's limits are.
 */
export const stepEstimateSchema = z
  .object({
    tokens: z.number().nonnegative().optional(),
    cost: z.number().nonnegative().optional(),
    modelCalls: z.number().int().nonnegative().optional(),
    timeMs: z.number().nonnegative().optional(),
  })
  .describe('Optional: what this step is likely to use (tokens, cost, modelCalls, timeMs), to forecast the plan against the budget.');

/** The amounts a budget counts, in the order prompts and reviews show them. */
export const BUDGET_AMOUNTS = ['tokens', 'cost', 'modelCalls', 'timeMs'] as const;
