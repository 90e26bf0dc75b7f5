import { neutraliseMarkers, quotedBlock, quoteValue } from '@replan/core/agent-kit';
import { systemMessage, userMessage, type BudgetView, type Message } from '@replan/core';
import { withBudget } from '../budget/budget-prompt.js';
import type { ExecutedStep, ExecutionContext, ExecutorInput } from './session-keys.js';
import { stepText } from './plan-schema.js';
import { formatContextItem, formatContextView, STEP_RESULTS_PREAMBLE } from './context-policy.js';

/**
 * A prompt: the system text and, for the executor and replanner, a task message that follows the
 * user's own messages (kept with their roles). `{name}` placeholders are filled from `inputs`.
 */
export interface PromptTemplate {
  readonly system: string;
  /** The user-role message after the conversation; absent for the planner. */
  readonly task?: string;
  /** The placeholders the template uses, and so the inputs it needs. */
  readonly inputs: readonly string[];
}

/** The planner's prompt. Inputs: the objective (the user's messages) and the executor's tools. */
export const PlannerPrompt: PromptTemplate = {
  system: `You are an expert planning agent. The conversation below states an objective. Write a step-by-step plan that reaches it, by calling the "plan" tool.

Each step must be:
- specific and actionable: an executor can carry it out without guessing;
- self-contained: it names every value, entity and constraint it needs (the executor sees the plan and earlier results, not your reasoning);
- necessary: no redundant steps; the last step produces what the objective asks for.

The executor can use these tools:
{tools}`,
  inputs: ['objective', 'tools'],
};

/**
 * The executor's prompt. Inputs: objective, completed steps with results, plan, current step.
 * Ordered for prompt caching, what changes least first: the instruction and the objective never
 * change in a run; the completed steps only grow at their end; the plan is rewritten by every
 * revision; the step is new each time. So one step's prompt is a prefix of the next's up to the
 * results they share.
 */
export const ExecutorPrompt: PromptTemplate = {
  system: `You are a careful executor agent. The conversation below states the overall objective; a plan has been made for it. Carry out exactly the one step you are given, using your tools when they help, then answer with that step's result: the facts, numbers or text the next steps need. Do not do later steps.`,
  task: `## COMPLETED STEPS AND RESULTS
{executedSteps}

## PLAN
{plan}

## YOUR STEP
{step}`,
  inputs: ['objective', 'executedSteps', 'plan', 'step'],
};

/** The replanner's prompt. Inputs: objective, completed steps with results, plan, tool names (ordered as `ExecutorPrompt`, for caching). */
export const ReplannerPrompt: PromptTemplate = {
  system: `You review progress toward the objective stated in the conversation below and choose exactly ONE action:

1. The objective is met, or the results show it cannot be met: call "{respondTool}" with the complete final answer for the user, based on the step results.
2. More work is needed: call "{planTool}" with a revised plan that lists ONLY the steps still to do (never completed ones), adapted to what the results taught you. If a step failed (see its tool errors), plan a way around the failure.

Steps in the plan must be specific, self-contained and necessary, in a logical order.`,
  task: `## COMPLETED STEPS AND RESULTS
{executedSteps}

## CURRENT PLAN
{plan}

Decide now: call "{respondTool}" or "{planTool}".`,
  inputs: ['objective', 'executedSteps', 'plan', 'planTool', 'respondTool'],
};

/** Replaces `{name}` placeholders; unknown names are left as they are. */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (all, name: string) => values[name] ?? all);
}

// Characters JSON.stringify leaves as they are but a model may read as a line break.
const UNESCAPED_LINE_BREAKS = /[\u0085\u2028\u2029]/g;

/**
 * A plan as the executor and replanner read it: JSON (so no text in it starts a line), with the
 * line breaks JSON leaves raw escaped and quote markers neutralised — a plan may carry text a
 * tool produced.
 */
export function formatPlanJson(plan: unknown): string {
  const json = JSON.stringify(plan, null, 2) ?? 'null';
  return neutraliseMarkers(json.replace(UNESCAPED_LINE_BREAKS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

/** Completed steps as a numbered list with results, tool errors and structured output, quoted as data. */
export function formatExecutedSteps(steps: readonly ExecutedStep[]): string {
  if (!steps.length) return '(none yet)';
  return quotedBlock(
    steps.map((s, i) => formatContextItem({ ...s, label: `${i + 1}.` })),
    STEP_RESULTS_PREAMBLE,
  );
}

/** The executor tools as the planner reads them: one `- name: description` line each. */
export function formatToolList(tools: readonly { readonly name: string; readonly description: string }[] | undefined): string {
  if (!tools?.length) return '(not listed: plan steps that a general assistant can do)';
  return tools.map((t) => `- ${t.name}: ${t.description}`).join('\n');
}

export interface PlannerPromptInput {
  readonly userInput: readonly Message[];
  /**
   * The session state when the planner runs, e.g. to put an earlier agent's `outputKey` into the
   * prompt of a `buildInput` (the default prompt does not show state).
   */
  readonly state?: Readonly<Record<string, unknown>>;
  readonly tools?: readonly { readonly name: string; readonly description: string }[];
  /** The run's budget and what is left of it, when the run has limits (the default prompt shows it after the instruction). */
  readonly budget?: BudgetView;
}

/** The planner's default messages: its system prompt, then the user's messages as they are. */
export function formatPlannerPrompt(input: PlannerPromptInput, system = PlannerPrompt.system): Message[] {
  return [systemMessage(withBudget(fillTemplate(system, { tools: formatToolList(input.tools) }), input.budget)), ...input.userInput];
}

/** The executor's default messages: system prompt, the user's messages, then the step's task. */
export function formatExecutorPrompt(input: ExecutorInput, system = ExecutorPrompt.system): Message[] {
  const values = {
    plan: formatPlanJson(input.plan),
    executedSteps: input.context ? formatContextView(input.context) : formatExecutedSteps(input.executedSteps),
    // The step is the executor's instruction, so it is not quoted as data, but it cannot start a line either.
    step: quoteValue(stepText(input.step)),
  };
  return [systemMessage(system), ...input.userInput, userMessage(fillTemplate(ExecutorPrompt.task ?? '', values))];
}

/** The replanner's default messages: system prompt, the user's messages, then the progress. */
export function formatReplannerPrompt(
  input: ExecutionContext,
  tools: { readonly planTool: string; readonly respondTool: string },
  system = ReplannerPrompt.system,
): Message[] {
  const values = {
    ...tools,
    plan: formatPlanJson(input.plan),
    executedSteps: input.context ? formatContextView(input.context) : formatExecutedSteps(input.executedSteps),
  };
  return [
    systemMessage(fillTemplate(system, values)),
    ...input.userInput,
    userMessage(withBudget(fillTemplate(ReplannerPrompt.task ?? '', values), input.budget)),
  ];
}
