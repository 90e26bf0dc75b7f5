import {
  type Message,
  type ModelRequest,
  type ModelResponse,
  type ToolResultBlock,
  toolCallsOf,
  toolResultsOf,
  type Usage,
} from '@replan/core';
import type { ModelCallAgent } from '@replan/core/agent-kit';
import { callTools, reply, ScriptedModel, type ScriptedToolCall } from '@replan/core/testing';
import { stepsOf } from '../base/plan-schema.js';
import { stepView, type TurnStepScript } from './step-view.js';

/** One model turn's tool calls: one call, several run together, or either chosen from the step's tool results so far. */
export type ScriptedTurn =
  | ScriptedToolCall
  | readonly ScriptedToolCall[]
  | ((results: readonly ToolResultBlock[], step: string) => ScriptedToolCall | readonly ScriptedToolCall[]);

/**
 * What the executor does for one step: its tool calls, one model turn per entry (counted from the
 * request's assistant messages), then its final text. A step whose context is compacted loses
 * those messages: script it with `turn` (`TurnStepScript`) instead.
 */
export interface StepScript {
  /**
   * The tool calls of each turn before the answer; a turn with several calls runs them together. A
   * function gets the step's tool results so far (e.g. to fetch the id a search returned) and the
   * step (its key: as written, or its id).
   */
  readonly toolCalls?: readonly ScriptedTurn[];
  /**
   * The step's result: the executor's final text, or a function of the step's tool results (what
   * the tools returned, including a refused approval's error result).
   */
  readonly text: string | ((results: readonly ToolResultBlock[], step: string) => string);
}

export interface PlanExecuteScript<Plan = unknown> {
  /** The planner's plan (what its `plan` call holds), e.g. `{ steps: ['search', 'answer'] }`. */
  readonly plan: Plan;
  /**
   * Each step's script (or just its final text): by the step as written in linear mode (a string
   * step, or its JSON), by step id in graph mode. A `TurnStepScript` answers each call from what
   * the model is shown (e.g. a step whose context is compacted).
   */
  readonly steps: Readonly<Record<string, StepScript | TurnStepScript | string>>;
  /**
   * The script of a step `steps` does not name (e.g. one a person wrote in an edit); without it,
   * such a step fails the run with an error naming it.
   */
  readonly otherSteps?: StepScript | TurnStepScript | string;
  /**
   * The replanner's revisions, in order; after them it continues the plan in force with the steps
   * still to run (linear mode), and answers once every step ran.
   */
  readonly replans?: readonly Plan[];
  /**
   * The final answer (the `respond` call's `response`), or a function of the step results the
   * executor gave in this process, by step key (as in `steps`). Also given when the replanner is
   * offered only `respond` (the budget ran low, `limits.onExhausted: 'answer'`), from the steps that ran.
   */
  readonly answer: string | ((results: Readonly<Record<string, string>>) => string);
}

/** How the scripted models behave, beyond what they answer. */
export interface ScriptedPlanExecuteOptions {
  /** The one-model router's id (`model.id`), e.g. to match a `prices` entry (default `scripted-plan-execute`). */
  readonly id?: string;
  /** Delay before each answer of every role, e.g. so a live view grows visibly. */
  readonly latencyMs?: number;
  /** Characters per streamed text chunk (default 8). */
  readonly chunkSize?: number;
  /**
   * The context window every model claims (`ChatModel.contextWindow`, tokens): compaction's default
   * `maxInputTokens`. Unset, they claim none.
   */
  readonly contextWindow?: number;
  /**
   * The usage every answer reports, from the request it answers, e.g. its input tokens as a
   * provider's tokenizer would count them (compaction calibrates its estimate on them). Unset,
   * every answer reports `ScriptedModel`'s default.
   */
  readonly usage?: (request: ModelRequest) => Usage;
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
 * graph step's id; a linear step's task, so an edited plan's steps are found too), and
 * within a step by how many turns it has had (counted from the request's assistant messages) or,
 * for a `turn` step, by what the request shows — never by prompt wording. So prompts may change, graph steps may start in any order, and a step resumed
 * in another process gets the rest of its script. Each run (session and invocation) follows its
 * own progress: a second message in the same session, or another session, starts over. The
 * planner writes `plan` on every call; the replanner gives the revisions of `replans` in order
 * (in linear mode, after the executor finished step n in this process, at least its n-th), and
 * once they are used up it continues the plan in force with the steps still to run, then answers
 * when every step ran — so a run resumed in a new process after a step goes on where the script
 * says, and a step's text may report what its tools returned (`text: (results) => …`).
 */
export function scriptPlanExecute<Plan>(script: PlanExecuteScript<Plan>, options: ScriptedPlanExecuteOptions = {}): ScriptedPlanExecute {
  const plans = [script.plan, ...(script.replans ?? [])];
  const timing = { ...(options.latencyMs !== undefined ? { latencyMs: options.latencyMs } : {}) };
  const streaming = {
    ...(options.chunkSize !== undefined ? { chunkSize: options.chunkSize } : {}),
    ...(options.contextWindow !== undefined ? { contextWindow: options.contextWindow } : {}),
  };
  const measured = withUsage(options.usage);
  // Each run (session and invocation) keeps its own progress: a second message in the same chat,
  // or another session served by the same models, starts its script over.
  const runs = new Map<string, Progress>();
  const progressOf = (caller: ModelCallAgent | undefined): Progress => {
    const key = caller?.run ? `${caller.run.sessionId}\u0000${caller.run.invocationId}` : '';
    let progress = runs.get(key);
    if (!progress) {
      progress = { results: {}, lastLinearStep: 0, replies: 0, plan: script.plan, finished: [] };
      runs.set(key, progress);
    }
    return progress;
  };
  const plannerModel: ScriptedModel = new ScriptedModel({
    id: 'scripted-planner',
    ...timing,
    ...streaming,
    respond: measured((_request, call) => {
      progressOf(plannerModel.callers[call]).plan = script.plan;
      return planCall(script.plan);
    }),
  });
  const replannerModel: ScriptedModel = new ScriptedModel({
    id: 'scripted-replanner',
    ...timing,
    ...streaming,
    respond: measured((request, call) => {
      const progress = progressOf(replannerModel.callers[call]);
      const reply = Math.max(progress.replies, progress.lastLinearStep - 1);
      progress.replies = reply + 1;
      // Offered only `respond` (the budget ran low, `limits.onExhausted: 'answer'`): it answers from what ran.
      const mayPlan = request.tools?.some((t) => t.name === 'plan') ?? true;
      const next = mayPlan ? (script.replans?.[reply] ?? remainingPlan(progress)) : undefined;
      if (next !== undefined) {
        progress.plan = next;
        return planCall(next);
      }
      const response = typeof script.answer === 'string' ? script.answer : script.answer({ ...progress.results });
      return callTools({ name: 'respond', args: { response } });
    }),
  });
  const executorModel: ScriptedModel = new ScriptedModel({
    id: 'scripted-executor',
    ...timing,
    ...streaming,
    respond: measured((request, call) =>
      stepReply(script, plans, executorModel.callers[call], request, progressOf(executorModel.callers[call])),
    ),
  });
  const roles = { planner: plannerModel, replanner: replannerModel, executor: executorModel };
  const model: ScriptedModel = new ScriptedModel({
    id: options.id ?? 'scripted-plan-execute',
    ...streaming,
    respond: async (request, call) => {
      const caller = model.callers[call];
      const name = caller?.name ?? '';
      const role = name.endsWith('replanner') ? 'replanner' : name.endsWith('planner') ? 'planner' : 'executor';
      // The whole response, so a role's usage is reported as it gave it.
      return roles[role].generate(request, caller ? { agent: caller } : {});
    },
  });
  return { plannerModel, executorModel, replannerModel, model };
}

/** What one run did in this process: each step's text by key, the last linear step number, the replies and the plan in force. */
interface Progress {
  readonly results: Record<string, string>;
  lastLinearStep: number;
  replies: number;
  /** The plan in force as scripted (the planner's, or the replanner's last revision). */
  plan: unknown;
  /** The linear steps the executor finished since, by key, in order. */
  readonly finished: string[];
}

/**
 * With no scripted revision left: the steps of the plan in force after the last one the executor
 * finished (linear mode), so the run goes on until every step ran; `undefined` (answer) when none
 * remain, or when the executor ran a step the plan does not hold (a person edited it).
 */
function remainingPlan(progress: Progress): unknown {
  const last = progress.finished.at(-1);
  if (last === undefined) return undefined;
  const steps = stepsOf(progress.plan);
  const at = steps.findIndex((step) => (typeof step === 'string' ? step : JSON.stringify(step)) === last);
  if (at < 0 || at === steps.length - 1) return undefined;
  return { ...(progress.plan as object), steps: steps.slice(at + 1) };
}

/** A respond function whose answers report `usage` of their request (unchanged without one). */
function withUsage(usage: ((request: ModelRequest) => Usage) | undefined) {
  return (respond: (request: ModelRequest, call: number) => Message | string) =>
    (request: ModelRequest, call: number): Message | ModelResponse => {
      const answer = respond(request, call);
      const message = typeof answer === 'string' ? reply(answer) : answer;
      if (usage === undefined) return message;
      return { message, finishReason: toolCallsOf(message).length ? 'tool_calls' : 'stop', usage: usage(request) };
    };
}

const planCall = (plan: unknown) => callTools({ name: 'plan', args: plan as Record<string, unknown> });

/** The executor's reply: the step from the caller, the turn from the request's assistant messages. */
function stepReply(
  script: PlanExecuteScript<unknown>,
  plans: readonly unknown[],
  caller: ModelCallAgent | undefined,
  request: ModelRequest,
  progress: Progress,
): Message | string {
  // The executor labels each step's work: its id (graph) or number (linear), and its task.
  const stepId = caller?.label?.id;
  const task = caller?.label?.text;
  if (stepId === undefined)
    throw new Error(
      'scriptPlanExecute: the executor model was called without a plan step (ModelCallOptions.agent.label); use it as a plan–execute executor.',
    );
  // A graph step's id names its script; a linear step by its task (as planned, or as a reviewer
  // edited it), else (a caller that does not give the task) by its number mapped through the scripted plans.
  const linear = !(stepId in script.steps) && /^\d+$/.test(stepId);
  const key = !linear ? stepId : (task ?? linearStepKey(plans, Number(stepId)));
  const entry = (key === undefined ? undefined : script.steps[key]) ?? script.otherSteps;
  if (entry === undefined)
    throw new Error(
      `scriptPlanExecute: no script for step ${JSON.stringify(key ?? `#${stepId}`)}; scripted steps: ${JSON.stringify(Object.keys(script.steps))}.`,
    );
  const step = typeof entry === 'string' ? { text: entry } : entry;
  // The step as the script knows it: its key, else its number.
  const name = key ?? `#${stepId}`;
  const finish = (text: string) => {
    progress.results[name] = text;
    if (linear) {
      progress.lastLinearStep = Math.max(progress.lastLinearStep, Number(stepId));
      progress.finished.push(name);
    }
    return text;
  };
  if ('turn' in step) {
    const next = step.turn(stepView(request, name));
    if ('text' in next) return finish(next.text);
    return callTools(...(isCallList(next.toolCalls) ? next.toolCalls : [next.toolCalls]));
  }
  // The step's own turns: what follows its input (the last user message); earlier runs of the
  // session may show their own exchanges before it.
  const own = request.messages.slice(request.messages.findLastIndex((m) => m.role === 'user') + 1);
  const turn = own.filter((m) => m.role === 'assistant').length;
  const results = own.flatMap((m) => toolResultsOf(m));
  const calls = step.toolCalls?.[turn];
  if (calls !== undefined) {
    const chosen = typeof calls === 'function' ? calls(results, name) : calls;
    return callTools(...(isCallList(chosen) ? chosen : [chosen]));
  }
  return finish(typeof step.text === 'string' ? step.text : step.text(results, name));
}

const isCallList = (calls: ScriptedToolCall | readonly ScriptedToolCall[]): calls is readonly ScriptedToolCall[] => Array.isArray(calls);

/** A linear run's n-th step: the first step of the n-th plan in force that has any. */
function linearStepKey(plans: readonly unknown[], n: number): string | undefined {
  const firsts = plans.map((p) => stepsOf(p)[0]).filter((s) => s !== undefined);
  const step = firsts[n - 1];
  return step === undefined ? undefined : typeof step === 'string' ? step : JSON.stringify(step);
}
