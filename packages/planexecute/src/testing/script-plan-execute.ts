import type { ModelCallAgent, ModelRequest } from '@replan/core';
import { callTools, ScriptedModel, type ScriptedReply, type ScriptedToolCall } from '@replan/core/testing';
import { stepsOf } from '../plan-schema.js';

/** What the executor does for one step: its tool calls, one model turn per entry, then its final text. */
export interface StepScript {
  /** The tool calls of each turn before the answer; a turn with several calls runs them together. */
  readonly toolCalls?: readonly (ScriptedToolCall | readonly ScriptedToolCall[])[];
  /** The step's result: the executor's final text. */
  readonly text: string;
}

export interface PlanExecuteScript<Plan = unknown> {
  /** The planner's plan (what its `plan` call holds), e.g. `{ steps: ['search', 'answer'] }`. */
  readonly plan: Plan;
  /**
   * Each step's script (or just its final text): by the step as written in linear mode (a string
   * step, or its JSON), by step id in graph mode.
   */
  readonly steps: Readonly<Record<string, StepScript | string>>;
  /** The replanner's revisions, in order; after them it gives the answer. */
  readonly replans?: readonly Plan[];
  /** The final answer (the `respond` call's `response`). */
  readonly answer: string;
}

/** Scripted models for a plan–execute agent: pass them as `plannerModel`, `executorModel`, `replannerModel` (or `model` alone). */
export interface ScriptedPlanExecute {
  /** Writes `plan`. */
  readonly plannerModel: ScriptedModel;
  /** Runs each step as scripted, by the step it is called for. */
  readonly executorModel: ScriptedModel;
  /** Gives each revision of `replans`, then `answer`. */
  readonly replannerModel: ScriptedModel;
  /**
   * One model for every role, routed by the calling agent's name (`…planner`, `…replanner`, else
   * the executor): for `createPlanExecuteAgent({ model })` when its parts keep their default names.
   */
  readonly model: ScriptedModel;
}

/**
 * Scripted planner, executor and replanner models for an offline test of a plan–execute agent.
 * Calls are routed by who asks (`ModelCallOptions.agent`): the executor's by the step it runs (a
 * graph step's id; a linear step's number, mapped to the first step of the plan in force), and
 * within a step by how many turns it has had (counted from the request's assistant messages), never
 * by prompt wording. So prompts may change, graph steps may start in any order, and a step resumed
 * in another process gets the rest of its script. The planner and replanner answer in order
 * (within one process).
 */
export function scriptPlanExecute<Plan>(script: PlanExecuteScript<Plan>): ScriptedPlanExecute {
  const plans = [script.plan, ...(script.replans ?? [])];
  let replies = 0;
  const plannerModel = new ScriptedModel({ id: 'scripted-planner', respond: () => planCall(script.plan) });
  const replannerModel = new ScriptedModel({
    id: 'scripted-replanner',
    respond: () => {
      const next = script.replans?.[replies++];
      return next === undefined ? callTools({ name: 'respond', args: { response: script.answer } }) : planCall(next);
    },
  });
  const executorModel: ScriptedModel = new ScriptedModel({
    id: 'scripted-executor',
    respond: (request, call) => stepReply(script, plans, executorModel.callers[call], request),
  });
  const roles = { planner: plannerModel, replanner: replannerModel, executor: executorModel };
  const model: ScriptedModel = new ScriptedModel({
    id: 'scripted-plan-execute',
    respond: async (request, call) => {
      const caller = model.callers[call];
      const name = caller?.name ?? '';
      const role = name.endsWith('replanner') ? 'replanner' : name.endsWith('planner') ? 'planner' : 'executor';
      return (await roles[role].generate(request, caller ? { agent: caller } : {})).message;
    },
  });
  return { plannerModel, executorModel, replannerModel, model };
}

const planCall = (plan: unknown) => callTools({ name: 'plan', args: plan as Record<string, unknown> });

/** The executor's reply: the step from the caller, the turn from the request's assistant messages. */
function stepReply(
  script: PlanExecuteScript<unknown>,
  plans: readonly unknown[],
  caller: ModelCallAgent | undefined,
  request: ModelRequest,
): ScriptedReply {
  if (caller?.step === undefined)
    throw new Error(
      'scriptPlanExecute: the executor model was called without a plan step (ModelCallOptions.agent.step); use it as a plan–execute executor.',
    );
  // A graph step's id names its script; a linear step's number is mapped through the scripted plans.
  const key = caller.step in script.steps || !/^\d+$/.test(caller.step) ? caller.step : linearStepKey(plans, Number(caller.step));
  const entry = key === undefined ? undefined : script.steps[key];
  if (entry === undefined)
    throw new Error(
      `scriptPlanExecute: no script for step ${JSON.stringify(key ?? `#${caller.step}`)}; scripted steps: ${JSON.stringify(Object.keys(script.steps))}.`,
    );
  const step: StepScript = typeof entry === 'string' ? { text: entry } : entry;
  const turn = request.messages.filter((m) => m.role === 'assistant').length;
  const calls = step.toolCalls?.[turn];
  if (calls === undefined) return step.text;
  return callTools(...(Array.isArray(calls) ? calls : [calls as ScriptedToolCall]));
}

/** A linear run's n-th step: the first step of the n-th plan in force that has any. */
function linearStepKey(plans: readonly unknown[], n: number): string | undefined {
  const firsts = plans.map((p) => stepsOf(p)[0]).filter((s) => s !== undefined);
  const step = firsts[n - 1];
  return step === undefined ? undefined : typeof step === 'string' ? step : JSON.stringify(step);
}
