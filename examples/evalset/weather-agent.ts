/**
 * The agent under test: a plan–execute agent with a `forecast` tool. Offline, a ScriptedModel plays
 * the planner, the executor and the replanner; with OPENAI_API_KEY you would pass a real model.
 */
import { type ChatModel, type ModelRequest, messageText, Runner, type SessionStore, tool } from '@replan/core';
import { callTools, ScriptedModel, type ScriptedReply } from '@replan/core/testing';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { z } from 'zod';

const forecasts: Record<string, string> = { lisbon: 'sunny, 24 °C', oslo: 'snow, -3 °C', lyon: 'rain, 12 °C' };

export const forecast = tool({
  name: 'forecast',
  description: "Tomorrow's weather in a city",
  parameters: z.object({ city: z.string(), day: z.string() }),
  execute: ({ city }) => `${city}: ${forecasts[city.toLowerCase()] ?? 'no forecast'}`,
});

const cityOf = (text: string) => ['Lisbon', 'Oslo', 'Lyon'].filter((c) => text.includes(c));

/** A scripted stand-in for a real model: plans one step per city, calls `forecast`, answers. */
export function scriptedWeatherModel(): ChatModel {
  const objective = (r: ModelRequest) => messageText(r.messages.find((m) => m.role === 'user'));
  const everything = (r: ModelRequest) => r.messages.map((m) => messageText(m)).join('\n');
  return new ScriptedModel({
    id: 'weather-script',
    respond: (request): ScriptedReply => {
      const cities = cityOf(objective(request));
      const steps = (list: string[]) => list.map((c) => `Get the forecast for ${c}`);
      if (typeof request.toolChoice === 'object') return callTools({ name: 'plan', args: { steps: steps(cities) } });
      if (request.tools?.some((t) => t.name === 'respond')) {
        const seen = everything(request);
        const found = cities.map((c) => new RegExp(`${c}: [^"\\n]*°C`).exec(seen)?.[0]);
        const todo = cities.filter((_, i) => !found[i]);
        if (todo.length) return callTools({ name: 'plan', args: { steps: steps(todo) } });
        return callTools({ name: 'respond', args: { response: `Tomorrow — ${found.join('; ')}.` } });
      }
      const last = request.messages.at(-1);
      if (last?.role === 'tool') return String(last.content[0]?.type === 'tool_result' ? last.content[0].output : 'done');
      const step = messageText(last);
      const city = cityOf(step.slice(step.lastIndexOf('## YOUR STEP')))[0] ?? 'Lisbon';
      return callTools({ name: 'forecast', args: { city, day: 'tomorrow' } });
    },
  });
}

/** The app's runner; an eval gives each case its own session in `store`. */
export function weatherRunner(model: ChatModel = scriptedWeatherModel(), store?: SessionStore): Runner {
  const agent = createPlanExecuteAgent({ model, tools: [forecast] });
  // Prices per million tokens make RunResult.cost (and so `maxCost`) real.
  const prices = { 'weather-script': { inputPerMillion: 150, outputPerMillion: 600 } };
  return new Runner({ agent, appName: 'weather', prices, ...(store ? { sessionStore: store } : {}) });
}
