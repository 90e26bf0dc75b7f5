import { QUOTE_BEGIN, QUOTE_END, quotePreamble, quoteValue } from '@replan/core/agent-kit';
import { systemMessage, userMessage, type Message } from '@replan/core';
import type { BudgetView } from '@replan/core';
import { withBudget } from '../budget/budget-prompt.js';
import { formatContextView, hasContext, type ContextView } from '../base/context-policy.js';
import { fillTemplate, type PromptTemplate } from '../base/prompts.js';
import type { ExecutedGraphStep } from '../base/session-keys.js';
import type { GraphStep } from './graph-plan.js';

/** The graph planner's prompt (`mode: 'graph'`). Inputs: the objective and the executor's tools. */
export const GraphPlannerPrompt: PromptTemplate = {
  system: `You are an expert planning agent. The conversation below states an objective. Write a plan that reaches it as a dependency graph, by calling the "plan" tool.

Each step has:
- "id": a short unique id ("1", "2", … or names such as "search_a"; letters, digits and "_");
- "task": a specific, self-contained instruction; write $id (or \${id}) where the result of an earlier step must be inserted;
- "dependsOn": the ids of the steps whose results it needs ([] when none). Every $id in a task must be listed here.

Steps that do not depend on each other run at the same time, so only add a dependency when a step really needs that result. No cycles. The executor sees only the results a step depends on, so the step(s) producing the final answer must depend on everything they need.

The executor can use these tools:
{tools}`,
  inputs: ['objective', 'tools'],
};

/** The prompt of one graph step. Inputs: objective, the results the step depends on, its task. */
export const GraphExecutorPrompt: PromptTemplate = {
  system: `You are a careful executor agent. The conversation below states the overall objective; a plan has been made for it and you run one of its steps. Carry out exactly the task you are given, using your tools when they help, then answer with that task's result: the facts, numbers or text later steps need.`,
  task: `{results}## YOUR TASK
{task}`,
  inputs: ['objective', 'results', 'task'],
};

/** The graph replanner's prompt. Inputs: objective, results, the graph with each step's status (it changes as steps finish, so it comes after the results), tool names. */
export const GraphReplannerPrompt: PromptTemplate = {
  system: `You review progress toward the objective stated in the conversation below. A plan graph was run; each step is marked done, failed or not run. Choose exactly ONE action:

1. The objective is met, or the results show it cannot be met: call "{respondTool}" with the complete final answer for the user, based on the step results.
2. More work is needed (a step failed, or the results call for more): call "{planTool}" with a graph of ONLY the steps still to run. Finished steps are never run again: never reuse their ids; a new step may depend on a done step's id and use its result as $id. Replace a failed step with a new step (new id) that works around the failure, and re-plan the steps that depended on it.`,
  task: `## COMPLETED STEPS AND RESULTS
{executedSteps}

## PLAN GRAPH
{graph}

Decide now: call "{respondTool}" or "{planTool}".`,
  inputs: ['objective', 'executedSteps', 'graph', 'planTool', 'respondTool'],
};

/** What a graph step's prompt is built from (the argument of a graph executor's `buildInput`). */
export interface GraphStepInput {
  readonly userInput: readonly Message[];
  readonly step: GraphStep;
  /**
   * The task with every `$id` of a dependency replaced by its result, each result quoted inline
   * between the quote markers (`quoteValue`: markers neutralised, no line of it can start a line).
   */
  readonly task: string;
  /** The ids whose results `task` has written into it (the prompt then says they are data). */
  readonly inserted?: readonly string[];
  /** The results the context policy shows (with `referenced`: the direct dependencies). */
  readonly context: ContextView;
}

/** The line before a task that has results written into it. */
export const INSERTED_RESULTS_PREAMBLE = quotePreamble('Results of earlier steps are written into the task below');

/** A dependency's result as it is written into a task: quoted inline. */
export const insertedResult = (result: string): string => `${QUOTE_BEGIN}${quoteValue(result)}${QUOTE_END}`;

/** A graph step's default messages: system prompt, the user's messages, then the results it depends on and its task, last. */
export function formatGraphStepPrompt(input: GraphStepInput, system = GraphExecutorPrompt.system): Message[] {
  const listed = hasContext(input.context) ? `## RESULTS OF EARLIER STEPS\n${formatContextView(input.context)}\n\n` : '';
  const results = input.inserted?.length ? `${listed}${INSERTED_RESULTS_PREAMBLE}\n` : listed;
  return [
    systemMessage(system),
    ...input.userInput,
    userMessage(fillTemplate(GraphExecutorPrompt.task ?? '', { results, task: `${input.task}${stepToolsLines(input.step)}` })),
  ];
}

/**
 * The tools a step names and the arguments it states (plan grants), under its task: the executor
 * calls them as approved (a call with other arguments asks again). A linear step shows them in its
 * JSON already. Model-written, so quoted like the task.
 */
function stepToolsLines(step: GraphStep): string {
  const named = namedTools(step);
  if (!named) return '';
  const stated = named.args === undefined ? '' : `\nArguments stated per tool: ${quoteValue(JSON.stringify(named.args))}`;
  return `\n\nTools this step names (approved with the plan): ${quoteValue(JSON.stringify(named.tools))}${stated}`;
}

/** What the graph replanner's prompt is built from. */
export interface GraphReplannerInput {
  readonly userInput: readonly Message[];
  /** The steps of the plan in force (the not-yet-run ones among them have no entry in `executedSteps`). */
  readonly steps: readonly GraphStep[];
  readonly executedSteps: readonly ExecutedGraphStep[];
  /** The results the context policy shows. */
  readonly context: ContextView;
  /** The run's budget and what is left of it, when the run has limits (shown by the default prompt). */
  readonly budget?: BudgetView;
}

/** The graph with a status per step: every step run under this objective, then the plan's steps not run. */
export function formatPlanGraph(steps: readonly GraphStep[], executed: readonly ExecutedGraphStep[]): string {
  const ran = new Set(executed.map((s) => s.id));
  const planned = new Map(steps.map((s) => [s.id, s]));
  const after = (id: string) => {
    const deps = planned.get(id)?.dependsOn ?? [];
    return deps.length ? ` (after ${deps.join(', ')})` : '';
  };
  // Tasks are model-written and may carry tool text: none of it may start a line.
  const lines = executed.map((s) => `- [${s.error !== undefined ? 'failed' : 'done'}] ${s.id}: ${quoteValue(s.step)}${after(s.id)}`);
  for (const s of steps) if (!ran.has(s.id)) lines.push(`- [not run] ${s.id}: ${quoteValue(s.task)}${after(s.id)}${toolsNote(s)}`);
  return lines.length ? lines.join('\n') : '(empty)';
}

/** A step's `tools` and `args` (plan grants), so a revision can keep the step as it was approved; quoted like the task. */
function toolsNote(step: GraphStep): string {
  const named = namedTools(step);
  if (!named) return '';
  return ` tools: ${quoteValue(JSON.stringify(named.tools))}${named.args === undefined ? '' : ` args: ${quoteValue(JSON.stringify(named.args))}`}`;
}

/** The `tools` and `args` a step carries (grant schema fields, absent from `GraphStep`'s type), when it names tools. */
function namedTools(step: GraphStep): { readonly tools: readonly unknown[]; readonly args: unknown } | undefined {
  const { tools, args } = step as { tools?: unknown; args?: unknown };
  return Array.isArray(tools) && tools.length ? { tools, args } : undefined;
}

/** The graph replanner's default messages. */
export function formatGraphReplannerPrompt(
  input: GraphReplannerInput,
  tools: { readonly planTool: string; readonly respondTool: string },
  system = GraphReplannerPrompt.system,
): Message[] {
  const values = { ...tools, graph: formatPlanGraph(input.steps, input.executedSteps), executedSteps: formatContextView(input.context) };
  return [
    systemMessage(fillTemplate(system, values)),
    ...input.userInput,
    userMessage(withBudget(fillTemplate(GraphReplannerPrompt.task ?? '', values), input.budget)),
  ];
}
