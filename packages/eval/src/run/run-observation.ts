import type { AgentEvent, GuardrailTrip, RunStatus, Usage } from '@replan/core';
import { toolCallsOf, toolResultsOf } from '@replan/core';
import { planExecuteEventKind } from '@replan/planexecute';

/** A tool call the agent made, as the trajectory compares it (its id is kept for reports only). */
export interface ObservedToolCall {
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
  /** The agent that called it, e.g. `plan_execute/execute_replan/executor`. */
  readonly path: string;
  readonly callId: string;
}

/** What one run of a case did: what the criteria judge. */
export interface RunObservation {
  readonly input: string;
  readonly status: RunStatus;
  /** The guardrail that blocked the run (status `blocked`). */
  readonly guardrail?: GuardrailTrip | undefined;
  readonly answer: string | undefined;
  readonly toolCalls: readonly ObservedToolCall[];
  /** Every plan the run wrote (the first, then each revision), as step texts. */
  readonly plans: readonly (readonly string[])[];
  /** Plan steps the run executed. */
  readonly executedSteps: number;
  /** How many times the replanner revised the plan. */
  readonly replans: number;
  readonly cost: number;
  readonly usage: Usage;
  readonly latencyMs: number;
  /** Model calls the runner could not price (no `prices` for their model). */
  readonly unpricedModelCalls: number;
}

/** Plan–execute decisions are tool calls in form only (`plan`, `respond`): nothing runs for them. */
const DECISIONS = new Set(['planning', 'repair', 'plan', 'revised-plan', 'answer', 'plan-step']);

/** The tool calls an invocation's events made, in stored order; plan–execute decisions left out. */
export function toolCallsOfEvents(events: readonly AgentEvent[]): ObservedToolCall[] {
  const calls: ObservedToolCall[] = [];
  for (const event of events) {
    if (event.partial || event.message?.role !== 'assistant') continue;
    const kind = planExecuteEventKind(event)?.kind;
    if (kind && DECISIONS.has(kind)) continue;
    for (const call of toolCallsOf(event.message)) calls.push({ name: call.name, args: call.args, path: event.path, callId: call.id });
  }
  return calls;
}

/** The results stored for tool calls, by call id (for a recording's trajectory). */
export function toolResultsByCallId(events: readonly AgentEvent[]): Map<string, { output: unknown; isError: boolean }> {
  const results = new Map<string, { output: unknown; isError: boolean }>();
  for (const event of events)
    for (const result of toolResultsOf(event.message))
      results.set(result.toolCallId, { output: result.output, isError: result.isError === true });
  return results;
}

/** A step as a reader matches it: a graph step's task, a string step as is, anything else as JSON. */
function stepLabel(step: unknown): string {
  if (typeof step === 'string') return step;
  const task = (step as { task?: unknown } | null)?.task;
  if (typeof task === 'string') return task;
  return JSON.stringify(step) ?? String(step);
}

/** The plans written and the steps executed in an invocation's events (any plan–execute agent in it). */
export function plansOfEvents(events: readonly AgentEvent[]): { plans: string[][]; executedSteps: number; replans: number } {
  const plans: string[][] = [];
  let executedSteps = 0;
  let replans = 0;
  for (const event of events) {
    if (event.partial) continue;
    const kind = planExecuteEventKind(event);
    if (kind?.kind === 'plan' || kind?.kind === 'revised-plan') {
      const steps = (kind.plan as { steps?: unknown } | undefined)?.steps;
      plans.push(Array.isArray(steps) ? steps.map(stepLabel) : []);
      if (kind.kind === 'revised-plan') replans++;
    } else if (kind?.kind === 'step-result') executedSteps++;
  }
  return { plans, executedSteps, replans };
}
