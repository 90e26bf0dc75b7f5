import { ConfigurationError } from '../errors/replan-error.js';

/** The part of `RunLimits` checked here (declared here: the budget imports this file). */
interface CheckedLimits {
  readonly maxTokens?: number | undefined;
  readonly maxCost?: number | undefined;
  readonly maxModelCalls?: number | undefined;
  readonly timeoutMs?: number | undefined;
  readonly onExhausted?: string | undefined;
  readonly reserve?: object | undefined;
}

/** The part of the root `Agent` checked here. */
interface RootAgent {
  readonly name: string;
  readonly answersOnExhausted?: boolean | undefined;
  readonly subAgents?: readonly RootAgent[] | undefined;
}

/** The first agent under `agent` (depth first) that answers from partial work, if any. */
function answeringAgentUnder(agent: RootAgent): RootAgent | undefined {
  for (const sub of agent.subAgents ?? []) {
    if (sub.answersOnExhausted) return sub;
    const found = answeringAgentUnder(sub);
    if (found) return found;
  }
  return undefined;
}

/**
 * Why a root agent that does not answer from partial work is refused `'answer'`. A plan–execute
 * agent inside it is named: its answer would end only its own part, and the agents around it (the
 * rest of a pipeline, a parent that goes on) would start on a budget already down to the reserve
 * and stop anyway, so the run would end neither answered nor whole.
 */
function notAnsweringMessage(agent: RootAgent): string {
  const nested = answeringAgentUnder(agent);
  if (nested)
    return `limits.onExhausted: 'answer' needs the root agent to answer from partial work, but "${agent.name}" only contains one ("${nested.name}"): the agents around it would go on with a budget down to the reserve and stop anyway. Run "${nested.name}" as the Runner's agent with 'answer' (pass its answer on to the rest yourself), or use onExhausted: 'stop' (the default) for "${agent.name}".`;
  return `limits.onExhausted: 'answer' needs a root agent that answers from partial work (a plan–execute agent with its own replanner), but "${agent.name}" is not one: it would only stop sooner. Use onExhausted: 'stop' (the default) for it.`;
}

/** Each budget amount (`BudgetAmounts`) and the limit it is counted against. */
export const LIMIT_OF = { tokens: 'maxTokens', cost: 'maxCost', modelCalls: 'maxModelCalls', timeMs: 'timeoutMs' } as const;

/**
 * Checks `limits.onExhausted` and `limits.reserve` when a run starts, before anything is stored: the
 * root `agent` (when given) must answer from partial work for `'answer'`; a
 * reserve only with `'answer'`, only for a limit that is set, a number from 0 up to (not including)
 * its limit — else a `ConfigurationError` naming both numbers.
 */
export function checkRunLimits(limits: CheckedLimits, agent?: RootAgent): void {
  const { onExhausted, reserve } = limits;
  if (onExhausted !== undefined && onExhausted !== 'stop' && onExhausted !== 'answer')
    throw new ConfigurationError(`limits.onExhausted must be 'stop' or 'answer', got ${JSON.stringify(onExhausted)}.`);
  if (agent && onExhausted === 'answer' && !agent.answersOnExhausted) throw new ConfigurationError(notAnsweringMessage(agent));
  if (reserve === undefined) return;
  if (onExhausted !== 'answer')
    throw new ConfigurationError(
      "limits.reserve is set but limits.onExhausted is not 'answer': the reserve is what an 'answer' run keeps for its answer. Set onExhausted: 'answer', or drop reserve.",
    );
  if (typeof reserve !== 'object' || reserve === null)
    throw new ConfigurationError(`limits.reserve must be an object like { tokens?, cost?, modelCalls?, timeMs? }, got ${String(reserve)}.`);
  for (const [amount, value] of Object.entries(reserve)) {
    if (value === undefined) continue;
    const limitName = LIMIT_OF[amount as keyof typeof LIMIT_OF];
    if (!limitName)
      throw new ConfigurationError(`limits.reserve.${amount} is not a budget amount; use tokens, cost, modelCalls or timeMs.`);
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      throw new ConfigurationError(`limits.reserve.${amount} must be a number of at least 0, got ${String(value)}.`);
    const limit = limits[limitName];
    if (limit === undefined)
      throw new ConfigurationError(
        `limits.reserve.${amount} is ${value} but limits.${limitName} is not set: a reserve comes out of a limit. Set limits.${limitName}, or drop reserve.${amount}.`,
      );
    if (value >= limit)
      throw new ConfigurationError(
        `limits.reserve.${amount} (${value}) is not smaller than limits.${limitName} (${limit}): the reserve comes out of the limit, so nothing would be left for work. Lower the reserve or raise the limit.`,
      );
  }
}
