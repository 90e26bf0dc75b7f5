import { type ChatModel, type Guardrails, type ModelRequest, messageText, Runner, type SessionStore, type Tool, tool } from '@replan/core';
import { callTools, ScriptedModel, type ScriptedReply } from '@replan/core/testing';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { z } from 'zod';

const isPlanner = (request: ModelRequest) => typeof request.toolChoice === 'object' && request.toolChoice.name === 'plan';
const isReplanner = (request: ModelRequest) => request.tools?.some((t) => t.name === 'respond') === true;
const afterTool = (request: ModelRequest) => request.messages.at(-1)?.role === 'tool';
const userText = (request: ModelRequest) => messageText(request.messages.find((m) => m.role === 'user'));

/** Each call costs 10 × 0.001 + 5 × 0.002 = $0.02 (ScriptedModel reports 10 in / 5 out). */
export const PRICE = { inputPerMillion: 1000, outputPerMillion: 2000 };

let ids = 0;
/** A fresh, random-looking tool-call id per call: what a provider sends. */
export const volatileId = () => `call_${Math.random().toString(36).slice(2)}_${++ids}`;

export interface ResearchOptions {
  readonly store?: SessionStore;
  /** The answer for an input (default: `Answer to <input>`). */
  readonly answer?: (input: string, run: number) => string;
  /** The cities looked up for an input, one step and one `lookup` call each. */
  readonly cities?: (input: string) => readonly string[];
  /** Model latency per call (ms). */
  readonly latencyMs?: number;
  /** Told when a run's tool starts and ends (to count overlapping runs). */
  readonly onTool?: (phase: 'start' | 'end') => void;
  /** Throws from the planner for this input. */
  readonly failOn?: string;
  /** The model of every role (default: the scripted research model). */
  readonly model?: ChatModel;
  /** Wraps the agent's tools (e.g. `replayTools(recording, tools)`). */
  readonly wrapTools?: (tools: Tool[]) => Tool[];
  /** The `lookup` tool's description (a change a strict replay notices). */
  readonly lookupDescription?: string;
  /** No price table: every model call is unpriced. */
  readonly unpriced?: boolean;
  /** The agent's input and output guardrails. */
  readonly guardrails?: Guardrails;
}

/** The research agent's tool: `lookup({ city, units })`; `onTool` is told when it really runs. */
export function lookupTool(options: Pick<ResearchOptions, 'latencyMs' | 'onTool' | 'lookupDescription'> = {}): Tool {
  return tool({
    name: 'lookup',
    description: options.lookupDescription ?? 'Looks a city up.',
    parameters: z.object({ city: z.string(), units: z.string() }),
    execute: async ({ city }) => {
      options.onTool?.('start');
      await new Promise((resolve) => setTimeout(resolve, options.latencyMs ?? 0));
      options.onTool?.('end');
      return `${city}: 500,000 people`;
    },
  });
}

/**
 * A plan–execute agent over ScriptedModels that works for any input: it plans one step per city,
 * each step calls `lookup({ city, units })`, then answers. Tool-call ids are random per call.
 */
export function researchRunner(options: ResearchOptions = {}): Runner {
  const cities = options.cities ?? (() => ['Lyon']);
  let runs = 0;
  const lookup = lookupTool(options);
  const model = new ScriptedModel({
    id: 'research-script',
    ...(options.latencyMs ? { latencyMs: options.latencyMs } : {}),
    respond: (request): ScriptedReply => {
      const input = userText(request);
      if (isPlanner(request)) {
        const objective = input;
        if (options.failOn && objective.includes(options.failOn)) return new Error(`planner exploded on ${options.failOn}`);
        runs++;
        return callTools({ id: volatileId(), name: 'plan', args: { steps: cities(objective).map((c) => `Look up ${c}`) } });
      }
      if (isReplanner(request)) {
        const objective = input;
        const done = request.messages.map((m) => messageText(m)).join('\n');
        const remaining = cities(objective).filter((c) => !done.includes(`${c} looked up`));
        if (remaining.length) return callTools({ id: volatileId(), name: 'plan', args: { steps: remaining.map((c) => `Look up ${c}`) } });
        return callTools({
          id: volatileId(),
          name: 'respond',
          args: { response: (options.answer ?? ((i) => `Answer to ${i}`))(objective, runs) },
        });
      }
      // The step to run is stated last, after the completed steps and the plan.
      const task = messageText(request.messages.at(-1 - (afterTool(request) ? 2 : 0)));
      const step = /Look up (\w+)/.exec(task.split('## YOUR STEP')[1] ?? task)?.[1] ?? 'Lyon';
      if (afterTool(request)) return `${step} looked up`;
      return callTools({ id: volatileId(), name: 'lookup', args: { city: step, units: 'metric' } });
    },
  });
  const tools: Tool[] = [lookup];
  const agent = createPlanExecuteAgent({
    model: options.model ?? model,
    tools: options.wrapTools?.(tools) ?? tools,
    ...(options.guardrails ? { guardrails: options.guardrails } : {}),
  });
  return new Runner({
    agent,
    appName: 'eval-test',
    ...(options.store ? { sessionStore: options.store } : {}),
    ...(options.unpriced ? {} : { prices: { 'research-script': PRICE } }),
  });
}
