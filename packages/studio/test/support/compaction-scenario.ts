import { z } from 'zod';
import { Runner, type SessionStore, compaction, tool } from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';

export const COMPACTION_SOURCES = 12;
const STEP = `Read the ${COMPACTION_SOURCES} field reports and list every reading`;
const reading = (n: number) => `READING-${n}: station ${n} measured ${n * 3} mm`;

/**
 * A plan–execute run whose one step reads 12 reports of ~4 KB under a 6,000-token window with
 * compaction on: its executor's context is summarised a few times (each an `actions.compaction`
 * event with the summarizer's usage). The executor fetches the next report by a counter, since a
 * compacted request no longer holds the earlier turns.
 */
export function compactionScenario(store: SessionStore, appName = 'field-reports'): Runner {
  let fetched = 0;
  const report = tool({
    name: 'fetch_report',
    description: 'Fetch one field report by number',
    parameters: z.object({ n: z.number() }),
    execute: ({ n }) => {
      fetched = Math.max(fetched, n);
      const filler = `Report ${n}: the crew checked the gauges and logged the weather. `.repeat(32);
      return `${filler}\n${reading(n)}\n${filler}`;
    },
  });
  // It reports its request's size as a server would (about 4 characters a token): compaction calibrates on it.
  const executorModel = new ScriptedModel({
    id: 'field-executor',
    respond: (request) => {
      const usage = { inputTokens: Math.ceil(JSON.stringify(request.messages).length / 4), outputTokens: 12 };
      return fetched < COMPACTION_SOURCES
        ? { message: callTools({ name: 'fetch_report', args: { n: fetched + 1 } }), finishReason: 'tool_calls', usage }
        : {
            message: { role: 'assistant', content: [{ type: 'text', text: `All ${COMPACTION_SOURCES} readings collected.` }] },
            finishReason: 'stop',
            usage,
          };
    },
  });
  const summarizer = new ScriptedModel({
    id: 'field-summarizer',
    respond: (request) => {
      const readings = JSON.stringify(request.messages).match(/READING-\d+: station \d+ measured \d+ mm/g) ?? [];
      return {
        message: { role: 'assistant', content: [{ type: 'text', text: [...new Set(readings)].join('\n') }] },
        finishReason: 'stop',
        usage: { inputTokens: 3200, outputTokens: 60 },
      };
    },
  });
  const roles = scriptPlanExecute({ plan: { steps: [STEP] }, steps: { [STEP]: 'unused' }, answer: 'Every reading is listed.' });
  const agent = createPlanExecuteAgent({
    model: roles.model,
    plannerModel: roles.plannerModel,
    executorModel,
    replannerModel: roles.replannerModel,
    tools: [report],
    stepMaxIterations: COMPACTION_SOURCES + 5,
    middleware: { executor: [compaction({ model: summarizer, maxInputTokens: 6_000 })] },
  });
  return new Runner({ agent, appName, sessionStore: store });
}
