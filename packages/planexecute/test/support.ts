import { z } from 'zod';
import {
  createPlanExecuteAgent,
  createExecutor,
  createPlanner,
  createReplanner,
  planExecuteEventKind,
  SessionKeys,
  type ContextPolicy,
  type PlanExecuteEventKind,
} from '@replan/planexecute';
import {
  InMemorySessionStore,
  Runner,
  messageText,
  tool,
  type Agent,
  type AgentEvent,
  type ModelRequest,
  type Run,
  type RunResult,
  type SessionStore,
  type Tool,
  type Middleware,
} from '@replan/core';
import { ScriptedModel, callTools, type ScriptedReply } from '@replan/core/testing';

/** A `plan` tool call. */
export const planCall = (steps: unknown[], extra: Record<string, unknown> = {}) => callTools({ name: 'plan', args: { steps, ...extra } });

/** A `respond` tool call. */
export const respondCall = (response: string) => callTools({ name: 'respond', args: { response } });

/** Drains a run: its events (partial ones included) and its result. */
export async function collect(run: Run): Promise<{ events: AgentEvent[]; result: RunResult }> {
  const events: AgentEvent[] = [];
  for await (const event of run) events.push(event);
  return { events, result: await run.result() };
}

/** The classified plan-execute events, in order. */
export const kindsOf = (events: readonly AgentEvent[]): PlanExecuteEventKind[] =>
  events.flatMap((e) => {
    const kind = planExecuteEventKind(e);
    return kind ? [kind] : [];
  });

/** The text of the last message of a model request (the executor's task, the replanner's progress). */
export const lastText = (request: ModelRequest | undefined) => messageText(request?.messages.at(-1));

/** Every text of a request, joined. */
export const allText = (request: ModelRequest | undefined) => (request?.messages ?? []).map(messageText).join('\n');

export interface Harness {
  readonly planner: ScriptedModel;
  readonly executor: ScriptedModel;
  readonly replanner: ScriptedModel;
  readonly runner: Runner;
  readonly store: SessionStore;
  state(sessionId: string): Promise<Record<string, unknown>>;
  events(sessionId: string): Promise<readonly AgentEvent[]>;
}

export interface HarnessOptions {
  /** Middleware for every part (e.g. `[promptCache()]`). */
  readonly middleware?: readonly Middleware[];
  readonly planner: readonly ScriptedReply[];
  readonly executor?: readonly ScriptedReply[];
  readonly replanner?: readonly ScriptedReply[];
  readonly tools?: readonly Tool[];
  readonly maxIterations?: number;
  readonly store?: SessionStore;
  readonly planSchema?: z.ZodType;
  readonly executorLatencyMs?: number;
  readonly contextPolicy?: ContextPolicy;
}

/** A plan-execute runner with one scripted model per role. */
export function harness(o: HarnessOptions): Harness {
  const planner = new ScriptedModel({ id: 'planner-model', responses: o.planner });
  const executor = new ScriptedModel({
    id: 'executor-model',
    responses: o.executor ?? [],
    ...(o.executorLatencyMs ? { latencyMs: o.executorLatencyMs } : {}),
  });
  const replanner = new ScriptedModel({ id: 'replanner-model', responses: o.replanner ?? [] });
  const planSchema = o.planSchema ? { planSchema: o.planSchema } : {};
  const policy = o.contextPolicy ? { contextPolicy: o.contextPolicy } : {};
  const mw = o.middleware ? { middleware: o.middleware } : {};
  const agent = createPlanExecuteAgent({
    planner: createPlanner({ model: planner, ...planSchema, ...mw }),
    executor: createExecutor({ model: executor, tools: o.tools ?? [], ...policy, ...mw }),
    replanner: createReplanner({ model: replanner, ...planSchema, ...policy, ...mw }),
    ...(o.maxIterations ? { maxIterations: o.maxIterations } : {}),
  });
  return { planner, executor, replanner, ...runnerFor(agent, o.store) };
}

/** A runner over a store (in memory by default), with readers of a stored session. */
export function runnerFor(agent: Agent, store: SessionStore = new InMemorySessionStore()) {
  const runner = new Runner({ agent, appName: 'pe-test', sessionStore: store });
  const session = async (id: string) => {
    const s = await store.get({ appName: 'pe-test', userId: 'u', id });
    if (!s) throw new Error(`no session ${id}`);
    return s;
  };
  return {
    runner,
    store,
    state: async (id: string) => (await session(id)).state,
    events: async (id: string) => (await session(id)).events as readonly AgentEvent[],
  };
}

/** `ExecutedSteps` as `[step, result]` pairs, for exact assertions. */
export const stepPairs = (state: Record<string, unknown>) =>
  ((state[SessionKeys.ExecutedSteps] ?? []) as { step: unknown; result: string }[]).map((s) => [s.step, s.result]);

/** A tool that counts its calls. */
export function countingTool(name: string, run: (args: { q: string }) => unknown = ({ q }) => `${name}:${q}`) {
  const calls: string[] = [];
  const t = tool({
    name,
    description: `${name} tool`,
    parameters: z.object({ q: z.string() }),
    execute: (args) => {
      calls.push(args.q);
      return run(args);
    },
  });
  return { tool: t, calls };
}
