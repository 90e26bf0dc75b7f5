/**
 * A plan–execute agent in graph mode, offline: `scriptPlanExecute` plays the planner, the step
 * executor and the replanner. Three city look-ups run at once; the comparison waits for all three.
 * Run: pnpm build && npx tsx examples/parallel-plans/main.ts
 */
import { z } from 'zod';
import { Runner, tool, type ToolResultBlock } from '@replan/core';
import { createPlanExecuteAgent, planExecuteEventKind } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';

const temperatures: Record<string, number> = { oslo: 4, lisbon: 19, cairo: 27 };

const weather = tool({
  name: 'weather',
  description: 'Current temperature of a city, in °C',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => {
    await new Promise((resolve) => setTimeout(resolve, 50)); // a slow API
    const t = temperatures[city.toLowerCase()];
    if (t === undefined) throw new Error(`unknown city "${city}"`);
    return t;
  },
});

const plan = {
  steps: [
    { id: 'oslo', task: 'Get the temperature in Oslo.', dependsOn: [] },
    { id: 'lisbon', task: 'Get the temperature in Lisbon.', dependsOn: [] },
    { id: 'cairo', task: 'Get the temperature in Cairo.', dependsOn: [] },
    { id: 'compare', task: 'Which city is warmest? Oslo: $oslo. Lisbon: $lisbon. Cairo: $cairo.', dependsOn: ['oslo', 'lisbon', 'cairo'] },
  ],
};

/** Each city step looks its city up with the tool, then reports; the comparison answers at once. */
const cityStep = (city: string) => ({
  toolCalls: [{ name: 'weather', args: { city } }],
  text: (results: readonly ToolResultBlock[]) => `${String(results.at(-1)?.output)} °C`,
});
// The planner, the step executor and the replanner, scripted by who calls (never by prompt text).
const script = scriptPlanExecute(
  {
    plan,
    steps: {
      oslo: cityStep('Oslo'),
      lisbon: cityStep('Lisbon'),
      cairo: cityStep('Cairo'),
      compare: 'Cairo is warmest at 27 °C (Lisbon 19 °C, Oslo 4 °C).',
    },
    answer: 'Cairo is the warmest (27 °C).',
  },
  { latencyMs: 100 },
);

const agent = createPlanExecuteAgent({
  mode: 'graph',
  stepConcurrency: 4,
  contextPolicy: 'referenced',
  tools: [weather],
  model: script.plannerModel,
  executorModel: script.executorModel,
  replannerModel: script.replannerModel,
});

const started = performance.now();
const run = new Runner({ agent, appName: 'parallel-plans' }).run({
  userId: 'me',
  input: 'Which of Oslo, Lisbon and Cairo is warmest now?',
});
for await (const event of run) {
  const kind = planExecuteEventKind(event);
  const at = `${String(Math.round(performance.now() - started)).padStart(4)} ms`;
  if (kind?.kind === 'plan') console.log(`${at}  plan: ${plan.steps.map((s) => s.id).join(', ')}`);
  if (kind?.kind === 'step-result')
    console.log(`${at}  step ${kind.stepId} done: ${'result' in kind.executedStep ? kind.executedStep.result : ''}`);
  if (kind?.kind === 'answer') console.log(`${at}  answer: ${kind.answer.text}`);
}
const result = await run.result();
console.log(`status ${result.status}; ${result.modelCalls} model calls in ${Math.round(performance.now() - started)} ms`);
console.log('The three look-ups ran at the same time; the comparison started once all three were stored.');
