import { z } from 'zod';
import {
  tool,
  type ChatModel,
  type ModelCallOptions,
  type ModelRequest,
  type ModelResponse,
  type ModelStreamPart,
  type SessionStore,
} from '@replan/core';
import { raceAbort } from '@replan/core/agent-kit';
import { ScriptedModel, type ScriptedReply } from '@replan/core/testing';
import { createExecutor, createPlanExecuteAgent, createPlanner, createReplanner } from '@replan/planexecute';
import { runnerFor } from './support.js';
import { TaskModel, type TaskModelOptions } from './graph-support.js';

export interface StreamedPlanModelOptions {
  /** Shared order log: `plan:end` is written when the stream's finish part is about to be handed on. */
  readonly log: string[];
  /** Waited for (with the abort signal) before the finish part: the plan stays open until it settles. */
  readonly holdFinish?: (call: number) => Promise<void> | undefined;
}

/**
 * A planner model whose `plan` call arguments stream in 12-character deltas, 2 ms apart
 * (`ScriptedModel`'s `argsChunkSize` / `chunkDelayMs`), logging when each stream finishes.
 */
export class StreamedPlanModel implements ChatModel {
  readonly id = 'planner-model';
  private readonly inner: ScriptedModel;

  constructor(
    responses: readonly ScriptedReply[],
    private readonly options: StreamedPlanModelOptions,
  ) {
    this.inner = new ScriptedModel({ id: this.id, responses, argsChunkSize: 12, chunkDelayMs: 2 });
  }

  get calls(): number {
    return this.inner.calls;
  }

  generate(request: ModelRequest, opts?: ModelCallOptions): Promise<ModelResponse> {
    return this.inner.generate(request, opts);
  }

  async *stream(request: ModelRequest, opts: ModelCallOptions = {}): AsyncIterable<ModelStreamPart> {
    const call = this.inner.calls;
    for await (const part of this.inner.stream(request, opts)) {
      if (part.type === 'finish') {
        const hold = this.options.holdFinish?.(call);
        if (hold) await (opts.signal ? raceAbort(hold, opts.signal) : hold);
        this.options.log.push('plan:end');
      }
      yield part;
    }
  }
}

/** A `work` tool logging `tool:<q>`; `hang` ids never settle (only an abort ends them). */
export function loggedWork(log: string[], hang: ReadonlySet<string> = new Set(), onCall: (q: string) => void = () => {}) {
  const calls: string[] = [];
  const work = tool({
    name: 'work',
    description: 'does the work of a step',
    parameters: z.object({ q: z.string() }),
    execute: ({ q }) => {
      calls.push(q);
      log.push(`tool:${q}`);
      onCall(q);
      return hang.has(q) ? new Promise<string>(() => {}) : `worked ${q}`;
    },
  });
  return { tool: work, calls };
}

export interface StreamingHarnessOptions {
  readonly planner: readonly ScriptedReply[];
  readonly steps: Readonly<Record<string, readonly ScriptedReply[]>>;
  readonly replanner?: readonly ScriptedReply[];
  readonly log?: string[];
  readonly hang?: ReadonlySet<string>;
  readonly holdFinish?: StreamedPlanModelOptions['holdFinish'];
  readonly store?: SessionStore;
  readonly model?: TaskModelOptions;
  /** Called with each `work` call's `q`. */
  readonly onTool?: (q: string) => void;
}

/** A graph-mode runner with `streamingPlan: true`: a streamed planner, a `TaskModel` for the steps, a logged `work` tool. */
export function streamingHarness(o: StreamingHarnessOptions) {
  const log = o.log ?? [];
  const planner = new StreamedPlanModel(o.planner, { log, ...(o.holdFinish ? { holdFinish: o.holdFinish } : {}) });
  const steps = new TaskModel(o.steps, o.model);
  const replanner = new ScriptedModel({ id: 'replanner-model', responses: o.replanner ?? [] });
  const work = loggedWork(log, o.hang, o.onTool);
  const agent = createPlanExecuteAgent({
    mode: 'graph',
    streamingPlan: true,
    planner: createPlanner({ model: planner }),
    executor: createExecutor({ model: steps, tools: [work.tool] }),
    replanner: createReplanner({ model: replanner }),
  });
  return { log, planner, steps, replanner, work, ...runnerFor(agent, o.store) };
}
