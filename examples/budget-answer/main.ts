/**
 * A plan–execute agent that runs out of budget, offline: with `limits.onExhausted: 'answer'` it
 * answers from the steps it finished (`result.partial`, `result.notRun`); with `'stop'` (the
 * default) the same budget ends the run `budget_exceeded` with no answer. `scriptPlanExecute` plays
 * the planner, the step executor and the replanner; each step's result is what the tool returned.
 * Run: pnpm build && npx tsx examples/budget-answer/main.ts
 */
import { z } from 'zod';
import { Runner, tool, type ToolResultBlock } from '@replan/core';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';

const catalogue: Record<string, number> = { laptop: 1290, monitor: 240, keyboard: 85, desk: 410 };
const looked: string[] = [];

const price = tool({
  name: 'price',
  description: 'The catalogue price of an item, in EUR',
  parameters: z.object({ item: z.string() }),
  execute: ({ item }) => {
    looked.push(item);
    const eur = catalogue[item];
    if (eur === undefined) throw new Error(`no price for "${item}"`);
    return eur;
  },
});

const items = ['laptop', 'monitor', 'keyboard', 'desk'];
const steps = items.map((item) => `Look up the price of the ${item}.`);
/** Each step asks the tool, then reports what it returned. */
const lookUp = (item: string) => ({
  toolCalls: [{ name: 'price', args: { item } }],
  text: (results: readonly ToolResultBlock[]) => `${item}: ${String(results.at(-1)?.output)} EUR`,
});

function agentFor() {
  const script = scriptPlanExecute({
    plan: { steps },
    steps: Object.fromEntries(items.map((item, i) => [steps[i] as string, lookUp(item)])),
    // The answer lists the prices the steps reported: all four, or those found before the budget ran low.
    answer: (results) => `Prices found: ${Object.values(results).join(', ') || 'none'}.`,
  });
  return createPlanExecuteAgent({
    tools: [price],
    model: script.plannerModel,
    executorModel: script.executorModel,
    replannerModel: script.replannerModel,
  });
}

// Planner 1 call, each step 2 (the tool call, then the report), each replanner turn 1: 13 calls in all.
const input = 'What does a home office (laptop, monitor, keyboard, desk) cost?';
for (const onExhausted of ['stop', 'answer'] as const) {
  looked.length = 0;
  const runner = new Runner({ agent: agentFor(), appName: 'budget-answer' });
  const result = await runner.run({ userId: 'me', input, limits: { maxModelCalls: 7, onExhausted } }).result();
  console.log(`onExhausted '${onExhausted}', at most 7 model calls: ${result.status} after ${result.modelCalls} calls`);
  console.log(`  tools called for: ${looked.join(', ')}`);
  if (result.output !== undefined) console.log(`  answer: ${result.output}`);
  if (result.partial) console.log(`  partial: not run: ${(result.notRun ?? []).join(' | ')}`);
  if (result.error) console.log(`  ${result.error.name}: ${result.error.message}`);
}
