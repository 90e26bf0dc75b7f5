import { ConfigurationError, type Agent } from '@replan/core';
import type { PlanExecuteParts } from '../plan-mode-parts.js';
import { Planner } from '../planner.js';
import { Replanner } from '../replanner.js';
import type { PlanCheck } from './plan-check.js';

/**
 * Gives the planner and the replanner the plan–execute agent's `checkPlan`. Only ours can take it:
 * the check runs inside their decision, where a refusal becomes a repair message. A custom part, or
 * a part already given a different `checkPlan`, is a `ConfigurationError` saying why.
 */
export function withCheckPlan(parts: PlanExecuteParts, checkPlan: PlanCheck | undefined): PlanExecuteParts {
  if (checkPlan === undefined) return parts;
  if (typeof checkPlan !== 'function')
    throw new ConfigurationError(
      `createPlanExecuteAgent: checkPlan must be a function (plan, ctx) => { ok: true } | { ok: false, reason }, got ${typeof checkPlan}.`,
    );
  return { ...parts, planner: checked(parts.planner, 'planner', checkPlan), replanner: checked(parts.replanner, 'replanner', checkPlan) };
}

function checked(agent: Agent, role: 'planner' | 'replanner', checkPlan: PlanCheck): Agent {
  const maker = role === 'planner' ? 'createPlanner' : 'createReplanner';
  if (!(agent instanceof Planner || agent instanceof Replanner))
    throw new ConfigurationError(
      `createPlanExecuteAgent: checkPlan needs a ${role} from ${maker}, but "${agent.name}" is a custom agent: the check runs inside its decision, where a refusal is sent back to the model as a repair. Use ${maker}, or check the plan in your own agent.`,
    );
  const own = agent.options.checkPlan;
  if (own !== undefined && own !== checkPlan)
    throw new ConfigurationError(
      `createPlanExecuteAgent: the ${role} "${agent.name}" has a checkPlan of its own and the agent is given another; set it in one place.`,
    );
  return agent.withCheck(checkPlan);
}
