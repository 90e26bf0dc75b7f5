/**
 * The agent under test: a plan–execute agent with a `forecast` tool. Offline, `scriptPlanExecute`
 * plays the planner, the executor and the replanner (one script per question); with OPENAI_API_KEY you would pass a real model.
 */
import { type ChatModel, Runner, type SessionStore, stringifyToolOutput, tool } from '@replan/core';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';
import { z } from 'zod';

const forecasts: Record<string, string> = { lisbon: 'sunny, 24 °C', oslo: 'snow, -3 °C', lyon: 'rain, 12 °C' };

export const forecast = tool({
  name: 'forecast',
  description: "Tomorrow's weather in a city",
  parameters: z.object({ city: z.string(), day: z.string() }),
  execute: ({ city }) => `${city}: ${forecasts[city.toLowerCase()] ?? 'no forecast'}`,
});

const cityOf = (text: string) => ['Lisbon', 'Oslo', 'Lyon'].filter((c) => text.includes(c));
const stepFor = (city: string) => `Get the forecast for ${city}`;

/**
 * A scripted stand-in for a real model, for one question: plans one step per city it names, each
 * step calls `forecast` and reports it, the replanner plans the cities left after the first, then answers.
 */
export function scriptedWeatherModel(question: string): ChatModel {
  const cities = cityOf(question);
  const reports = (results: Readonly<Record<string, string>>) => cities.map((c) => results[stepFor(c)] ?? `${c}: no forecast`);
  return scriptPlanExecute(
    {
      plan: { steps: cities.map(stepFor) },
      steps: Object.fromEntries(
        cities.map((city) => [
          stepFor(city),
          {
            toolCalls: [{ name: 'forecast', args: { city, day: 'tomorrow' } }],
            text: (results) => stringifyToolOutput(results.at(-1)?.output),
          },
        ]),
      ),
      replans: cities.length > 1 ? [{ steps: cities.slice(1).map(stepFor) }] : [],
      answer: (results) => `Tomorrow — ${reports(results).join('; ')}.`,
    },
    { id: 'weather-script' },
  ).model;
}

/** The app's runner; an eval gives each case its own session in `store`. */
export function weatherRunner(model: ChatModel, store?: SessionStore): Runner {
  const agent = createPlanExecuteAgent({ model, tools: [forecast] });
  // Prices per million tokens make RunResult.cost (and so `maxCost`) real.
  const prices = { 'weather-script': { inputPerMillion: 150, outputPerMillion: 600 } };
  return new Runner({ agent, appName: 'weather', prices, ...(store ? { sessionStore: store } : {}) });
}
