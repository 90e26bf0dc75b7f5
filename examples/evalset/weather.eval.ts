/**
 * An eval file: `replan eval examples/evalset/weather.eval.ts --junit reports/evals.xml` runs it and
 * exits 1 when a case fails (in this repository: `pnpm build && pnpm replan eval examples/evalset/weather.eval.ts`).
 */
import { arg, defineEvalSet, type EvalCase } from '@replan/eval';
import { scriptedWeatherModel, weatherRunner } from './weather-agent.js';

export const evalSet = defineEvalSet({
  name: 'weather',
  cases: [
    {
      name: 'one city',
      input: 'What is the weather in Lisbon tomorrow?',
      expect: {
        trajectory: { mode: 'exact', calls: [{ name: 'forecast', args: { city: 'Lisbon', day: arg.any('string') } }] },
        answer: /Lisbon: sunny/,
        status: 'completed',
        maxCost: 0.05,
      },
    },
    {
      name: 'two cities, any order',
      input: 'Compare tomorrow in Oslo and Lyon.',
      expect: {
        trajectory: {
          mode: 'any-order',
          calls: [
            { name: 'forecast', args: { city: 'Lyon', day: arg.ignore } },
            { name: 'forecast', args: 'ignore' },
          ],
        },
        plan: { includes: ['Oslo', /Lyon/], maxSteps: 2, maxReplans: 1 },
        answer: (text) => text.includes('snow') && text.includes('rain'),
        maxLatencyMs: 10_000,
      },
    },
  ],
});

/** A runner per case: offline, its model is scripted for the case's question. */
export const makeRunner = (evalCase: EvalCase) => weatherRunner(scriptedWeatherModel(JSON.stringify(evalCase.input)));
