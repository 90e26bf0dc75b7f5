/**
 * The agent under test in this example: a graph plan–execute agent that looks up two prices in
 * parallel and adds them. `tripAgent` takes its models and tools, so the same agent runs live
 * (recording) and replayed (testing); `scriptedModels` stand in for a real provider offline.
 */
import { z } from 'zod';
import { type ChatModel, tool, type Tool } from '@replan/core';
import { createExecutor, createPlanExecuteAgent, createPlanner, createReplanner } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';

export const EXECUTOR_INSTRUCTION = 'You run one step of a travel plan. Use the tools; answer with the number you found.';

export interface TripModels {
  readonly planner: ChatModel;
  readonly executor: ChatModel;
  readonly replanner: ChatModel;
}

/** The agent: planner → parallel steps (each may call `price`) → replanner. */
export function tripAgent(models: TripModels, tools: readonly Tool[], instruction = EXECUTOR_INSTRUCTION) {
  return createPlanExecuteAgent({
    mode: 'graph',
    planner: createPlanner({ model: models.planner }),
    executor: createExecutor({ model: models.executor, tools, instruction }),
    replanner: createReplanner({ model: models.replanner }),
  });
}

/** The `price` tool; `calls` counts its real runs (a real one would hit a booking API). */
export function priceTool() {
  const calls: string[] = [];
  const prices: Record<string, number> = { flight: 420, hotel: 310 };
  const price = tool({
    name: 'price',
    description: 'Current price of a trip item, in EUR',
    parameters: z.object({ item: z.enum(['flight', 'hotel']) }),
    execute: ({ item }) => {
      calls.push(item);
      return prices[item];
    },
  });
  return { price, calls };
}

/** Offline stand-ins for the provider's models while recording (a production run would use real ones), scripted by who calls. */
export function scriptedModels(): TripModels {
  const script = scriptPlanExecute({
    plan: {
      steps: [
        { id: 'flight', task: 'find the flight price', dependsOn: [] },
        { id: 'hotel', task: 'find the hotel price', dependsOn: [] },
        { id: 'total', task: 'add $flight and $hotel', dependsOn: ['flight', 'hotel'] },
      ],
    },
    steps: {
      flight: { toolCalls: [{ name: 'price', args: { item: 'flight' } }], text: '420' },
      hotel: { toolCalls: [{ name: 'price', args: { item: 'hotel' } }], text: '310' },
      total: '730',
    },
    answer: 'The trip costs 730 EUR.',
  });
  return { planner: script.plannerModel, executor: script.executorModel, replanner: script.replannerModel };
}

/**
 * One model for every role that passes each call to the role's own model, by the calling agent's
 * path (`ModelCallOptions.agent`): a live `fallback` for a replay that plays every role.
 */
export function byRole(models: TripModels): ChatModel {
  const pick = (path = '') =>
    path.endsWith('/replanner') ? models.replanner : path.includes('/executor/') ? models.executor : models.planner;
  return {
    id: 'by-role',
    generate: (request, opts) => pick(opts?.agent?.path).generate(request, opts),
    stream: (request, opts) => pick(opts?.agent?.path).stream(request, opts),
  };
}
