import { ConfigurationError, type Agent } from '@replan/core';
import { Executor } from './executor.js';
import { GraphExecutor } from './graph/graph-executor.js';
import type { PlanMode } from './graph/graph-plan.js';
import { Planner } from './planner.js';
import { Replanner } from './replanner.js';
import { StreamingGraphPlanner } from './graph/streaming-planner.js';

export interface PlanExecuteParts {
  readonly planner: Agent;
  readonly executor: Agent;
  readonly replanner: Agent;
}

/** The mode of one of our agents, or undefined for a custom agent (trusted to fit). */
function modeOf(agent: Agent): PlanMode | undefined {
  if (agent instanceof Planner || agent instanceof Replanner) return agent.mode;
  if (agent instanceof GraphExecutor || agent instanceof StreamingGraphPlanner) return 'graph';
  if (agent instanceof Executor) return undefined; // either: wrapped per step in graph mode
  return undefined;
}

/**
 * Checks that the parts fit the agent's mode and, in graph mode, turns a linear `Executor` into a
 * `GraphExecutor` with the same options. Mixing linear and graph parts is a `ConfigurationError`.
 */
export function partsForMode(
  mode: PlanMode,
  parts: PlanExecuteParts,
  stepConcurrency: number | undefined,
  streamingPlan = false,
): PlanExecuteParts {
  const graphParts = graphPartsFor(mode, parts, stepConcurrency);
  return streamingPlan ? withStreamingPlanner(mode, graphParts) : graphParts;
}

function graphPartsFor(mode: PlanMode, parts: PlanExecuteParts, stepConcurrency: number | undefined): PlanExecuteParts {
  for (const [role, agent] of Object.entries(parts) as [keyof PlanExecuteParts, Agent][]) {
    const partMode = modeOf(agent);
    if (partMode !== undefined && partMode !== mode)
      throw new ConfigurationError(
        `createPlanExecuteAgent: the ${role} "${agent.name}" is built for mode '${partMode}' but the agent's mode is '${mode}'. ` +
          `Pass mode: '${mode}' to every part (createPlanner({ model, mode: '${mode}' }), createReplanner({ model, mode: '${mode}' })), or mode: '${partMode}' here.`,
      );
  }
  if (mode === 'linear') {
    if (stepConcurrency !== undefined)
      throw new ConfigurationError(
        "createPlanExecuteAgent: stepConcurrency only applies with mode: 'graph' (a linear plan runs one step at a time).",
      );
    return parts;
  }
  const { executor } = parts;
  if (executor instanceof GraphExecutor) {
    if (stepConcurrency !== undefined && stepConcurrency !== executor.stepConcurrency)
      throw new ConfigurationError(
        `createPlanExecuteAgent: stepConcurrency ${stepConcurrency} differs from the graph executor's own (${executor.stepConcurrency}); set it in one place.`,
      );
    return parts;
  }
  if (!(executor instanceof Executor)) return parts;
  const { buildInput, ...options } = executor.options;
  if (buildInput)
    throw new ConfigurationError(
      "createPlanExecuteAgent: a linear executor's buildInput cannot build graph step prompts; use createGraphExecutor({ ..., buildInput }) for mode: 'graph'.",
    );
  const graphExecutor = new GraphExecutor(
    { ...options, name: executor.name, ...(stepConcurrency !== undefined ? { stepConcurrency } : {}) },
    executor.keys,
  );
  return { ...parts, executor: graphExecutor };
}

/** `streamingPlan: true`: the graph planner becomes a `StreamingGraphPlanner` starting the executor's steps. */
function withStreamingPlanner(mode: PlanMode, parts: PlanExecuteParts): PlanExecuteParts {
  const { planner, executor } = parts;
  if (mode !== 'graph')
    throw new ConfigurationError(
      "createPlanExecuteAgent: streamingPlan only applies with mode: 'graph' (a linear plan's steps depend on the one before).",
    );
  if (planner instanceof StreamingGraphPlanner) return parts;
  if (!(planner instanceof Planner))
    throw new ConfigurationError(
      `createPlanExecuteAgent: streamingPlan needs a planner from createPlanner({ model, mode: 'graph' }), but "${planner.name}" is a custom agent; drop streamingPlan or use createPlanner.`,
    );
  if (!(executor instanceof GraphExecutor))
    throw new ConfigurationError(
      `createPlanExecuteAgent: streamingPlan needs the executor to be createExecutor(...) or createGraphExecutor(...), but "${executor.name}" is a custom agent; drop streamingPlan or use one of those.`,
    );
  return { ...parts, planner: new StreamingGraphPlanner({ planner, executor }) };
}
