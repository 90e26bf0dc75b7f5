import {
  messageText,
  type ChatModel,
  type ModelCallOptions,
  type ModelRequest,
  type ModelResponse,
  type Middleware,
  type ModelStreamPart,
  type SessionStore,
  type Tool,
} from '@replan/core';
import { QUOTE_BEGIN, QUOTE_END, raceAbort } from '@replan/core/agent-kit';
import { callTools, ScriptedModel, type ScriptedReply } from '@replan/core/testing';
import {
  createExecutor,
  createPlanExecuteAgent,
  createPlanner,
  createReplanner,
  SessionKeys,
  type ContextPolicy,
  type ExecutedGraphStep,
} from '@replan/planexecute';
import { runnerFor } from './support.js';

/** A graph `plan` tool call: `[id, task, dependsOn]` triples. */
export const graphCall = (...steps: [string, string, string[]][]) =>
  callTools({ name: 'plan', args: { steps: steps.map(([id, task, dependsOn]) => ({ id, task, dependsOn })) } });

/**
 * The task a step's request is about (graph `## YOUR TASK`, or linear `## YOUR STEP`), with the
 * quote markers around inserted `$id` results taken out (scripts are keyed by the plain text).
 */
export function taskOf(request: ModelRequest): string {
  const text = messageText(request.messages.findLast((m) => m.role === 'user'));
  const marker = text.includes('## YOUR TASK\n') ? '## YOUR TASK\n' : '## YOUR STEP\n';
  return (text.split(marker)[1] ?? '').replaceAll(QUOTE_BEGIN, '').replaceAll(QUOTE_END, '');
}

export interface TaskModelOptions {
  readonly latencyMs?: number;
  /** A promise a call waits for (raced with the abort signal), by task and call number within the task. */
  readonly hold?: (task: string, call: number) => Promise<void> | undefined;
}

/**
 * An executor model scripted per task (steps run concurrently, so call order is not fixed). It
 * counts the calls running at once (`maxActive`) and logs `start:<task>` / `end:<task>`.
 */
export class TaskModel implements ChatModel {
  readonly id = 'task-model';
  readonly log: string[] = [];
  readonly requests: ModelRequest[] = [];
  active = 0;
  maxActive = 0;
  private readonly calls = new Map<string, number>();
  private readonly answered = new Map<string, number>();
  private readonly inner: ScriptedModel;

  constructor(
    script: Readonly<Record<string, readonly ScriptedReply[]>>,
    private readonly options: TaskModelOptions = {},
  ) {
    this.inner = new ScriptedModel({
      id: this.id,
      respond: (request) => {
        const task = taskOf(request);
        const n = this.answered.get(task) ?? 0;
        this.answered.set(task, n + 1);
        const reply = script[task]?.[n];
        if (reply === undefined) throw new Error(`TaskModel: no reply #${n + 1} scripted for task "${task}"`);
        return reply;
      },
      ...(options.latencyMs ? { latencyMs: options.latencyMs } : {}),
    });
  }

  /** Calls made for a task. */
  callsFor(task: string): number {
    return this.calls.get(task) ?? 0;
  }

  async generate(request: ModelRequest, opts: ModelCallOptions = {}): Promise<ModelResponse> {
    const task = taskOf(request);
    const n = this.callsFor(task);
    this.calls.set(task, n + 1);
    this.requests.push(request);
    this.log.push(`start:${task}`);
    this.maxActive = Math.max(this.maxActive, ++this.active);
    try {
      const hold = this.options.hold?.(task, n);
      if (hold) await (opts.signal ? raceAbort(hold, opts.signal) : hold);
      return await this.inner.generate(request, opts);
    } finally {
      this.active--;
      this.log.push(`end:${task}`);
    }
  }

  async *stream(request: ModelRequest, opts: ModelCallOptions = {}): AsyncIterable<ModelStreamPart> {
    yield { type: 'finish', response: await this.generate(request, opts) };
  }
}

export interface GraphHarnessOptions {
  /** Middleware for every part (e.g. `[promptCache()]`). */
  readonly middleware?: readonly Middleware[];
  readonly planner: readonly ScriptedReply[];
  readonly steps: Readonly<Record<string, readonly ScriptedReply[]>>;
  readonly replanner?: readonly ScriptedReply[];
  readonly tools?: readonly Tool[];
  readonly stepConcurrency?: number;
  readonly contextPolicy?: ContextPolicy;
  readonly replannerPolicy?: ContextPolicy;
  readonly store?: SessionStore;
  readonly model?: TaskModelOptions;
  readonly maxIterations?: number;
}

/** A graph-mode plan-execute runner: scripted planner and replanner, a `TaskModel` for the steps. */
export function graphHarness(o: GraphHarnessOptions) {
  const planner = new ScriptedModel({ id: 'planner-model', responses: o.planner });
  const steps = new TaskModel(o.steps, o.model);
  const replanner = new ScriptedModel({ id: 'replanner-model', responses: o.replanner ?? [] });
  const mw = o.middleware ? { middleware: o.middleware } : {};
  const agent = createPlanExecuteAgent({
    mode: 'graph',
    planner: createPlanner({ model: planner, ...mw }),
    executor: createExecutor({ model: steps, tools: o.tools ?? [], ...(o.contextPolicy ? { contextPolicy: o.contextPolicy } : {}), ...mw }),
    replanner: createReplanner({
      model: replanner,
      ...(o.replannerPolicy ? { contextPolicy: o.replannerPolicy } : {}),
      ...mw,
    }),
    ...(o.stepConcurrency ? { stepConcurrency: o.stepConcurrency } : {}),
    ...(o.maxIterations ? { maxIterations: o.maxIterations } : {}),
  });
  return { planner, steps, replanner, ...runnerFor(agent, o.store) };
}

/** `ExecutedSteps` of a graph run as `[id, result or 'error: …']`, in completion order. */
export const graphPairs = (state: Record<string, unknown>) =>
  ((state[SessionKeys.ExecutedSteps] ?? []) as ExecutedGraphStep[]).map((s) => [
    s.id,
    s.error !== undefined ? `error: ${s.error}` : s.result,
  ]);
