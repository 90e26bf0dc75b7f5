/**
 * Long steps: (1) one plan step of 200 tool calls (~6 KB results) under a 32k-token window with
 * compaction, against the same step without it: the largest request, the input tokens of all the
 * step's model calls and the summarizer's calls. (2) What compaction's token estimate costs per
 * ReAct iteration when it never triggers, against compaction off.
 * Run: pnpm bench long-step (or: pnpm build && npx tsx bench/long-step.ts)
 */
import { z } from 'zod';
import { type CompactionOptions, compaction as compactionMiddleware, ReActAgent, Runner, tool } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { fmt, medianMs, table } from './measure.js';
import { modelFor, noop } from './react-overhead.js';
// The example's stand-in for a tokenizer, so the bench and the example count the same way.
import { reportedTokens, text } from '../examples/long-step/long-step.js';

const WINDOW = 32_000;
const CALLS = 200;
const FACTS = /FACT-\d+/g;
const filler = 'The committee met, reviewed the minutes and adjourned without further business. ';

interface StepFigures {
  largest: number;
  stepInput: number;
  summarizerInput: number;
  summarizerCalls: number;
  compactions: number;
  factsKept: number;
}

async function longStep(compaction: boolean): Promise<StepFigures> {
  let fetched = 0;
  let largest = 0;
  let stepInput = 0;
  let summarizerInput = 0;
  let factsKept = 0;
  const source = tool({
    name: 'fetch_source',
    description: 'Fetch one source by number',
    parameters: z.object({ n: z.number() }),
    execute: ({ n }) => {
      fetched = n;
      return `${filler.repeat(36)}\nFACT-${n}\n${filler.repeat(36)}`;
    },
  });
  const executorModel = new ScriptedModel({
    contextWindow: WINDOW,
    respond: (request) => {
      const usage = { inputTokens: reportedTokens(request), outputTokens: 20 };
      largest = Math.max(largest, usage.inputTokens);
      stepInput += usage.inputTokens;
      if (fetched < CALLS)
        return { message: callTools({ name: 'fetch_source', args: { n: fetched + 1 } }), finishReason: 'tool_calls', usage };
      factsKept = new Set(text(request).match(FACTS)).size;
      return { message: { role: 'assistant', content: [{ type: 'text', text: `${factsKept} facts` }] }, finishReason: 'stop', usage };
    },
  });
  const summarizer = new ScriptedModel({
    respond: (request) => {
      const inputTokens = reportedTokens(request);
      summarizerInput += inputTokens;
      const summary = [...new Set(text(request).match(FACTS))].join('\n');
      return {
        message: { role: 'assistant', content: [{ type: 'text', text: summary }] },
        finishReason: 'stop',
        usage: { inputTokens, outputTokens: Math.ceil(summary.length / 3.5) },
      };
    },
  });
  const options: CompactionOptions | undefined = compaction ? { model: summarizer } : undefined;
  const agent = createPlanExecuteAgent({
    model: executorModel,
    plannerModel: new ScriptedModel({ responses: [callTools({ name: 'plan', args: { steps: [`Read sources 1–${CALLS}`] } })] }),
    executorModel,
    replannerModel: new ScriptedModel({ responses: [callTools({ name: 'respond', args: { response: 'done' } })] }),
    tools: [source],
    stepMaxIterations: CALLS + 10,
    ...(options ? { middleware: { executor: [compactionMiddleware(options)] } } : {}),
  });
  const run = new Runner({ agent, appName: 'bench' }).run({ userId: 'u', input: 'Read every source.' });
  let compactions = 0;
  for await (const event of run) if (event.actions?.compaction) compactions++;
  const result = await run.result();
  if (result.status !== 'completed') throw new Error(`bench run ended ${result.status}: ${result.error?.message}`);
  return { largest, stepInput, summarizerInput, summarizerCalls: summarizer.calls, compactions, factsKept };
}

/** A ReAct run of `iterations` zero-latency iterations; compaction on with a window it never nears, or off. */
async function react(iterations: number, compaction: boolean): Promise<void> {
  const agent = new ReActAgent({
    name: 'bench',
    model: modelFor(iterations),
    tools: [noop],
    maxIterations: iterations + 1,
    ...(compaction ? { middleware: [compactionMiddleware({ maxInputTokens: 100_000_000 })] } : {}),
  });
  const result = await new Runner({ agent, appName: 'bench' }).run({ userId: 'u', input: 'go' }).result();
  if (result.status !== 'completed') throw new Error(`bench run ended ${result.status}: ${result.error?.message}`);
}

export async function longStepBench(): Promise<string> {
  const on = await longStep(true);
  const off = await longStep(false);
  const k = (n: number) => `${fmt(n / 1000)}k`;
  const stepRows = [
    ['off', k(off.largest), k(off.stepInput), 0, '—', 0, `${off.factsKept} / ${CALLS}`],
    [
      'on',
      k(on.largest),
      k(on.stepInput),
      k(on.summarizerInput),
      k(on.stepInput + on.summarizerInput),
      on.summarizerCalls,
      `${on.factsKept} / ${CALLS}`,
    ],
  ];
  const n = 100;
  for (let round = 0; round < 50; round++) {
    await react(n, false);
    await react(n, true);
  }
  const offUs = ((await medianMs(() => react(n, false), 101, 0)) / n) * 1000;
  const onUs = ((await medianMs(() => react(n, true), 101, 0)) / n) * 1000;
  return [
    `### One step of ${CALLS} tool calls (~6 KB results) under a ${WINDOW / 1000}k window (tokens as the model reports them, ~3.5 characters a token)`,
    '',
    table(
      [
        'compaction',
        'largest request',
        'step input tokens',
        'summarizer input',
        'total input',
        'summarizer calls',
        'facts the last call sees',
      ],
      stepRows,
    ),
    '',
    `### Token estimate per ReAct iteration (µs, ${n} iterations a run, median of 101 runs after warm-up)`,
    '',
    table(
      ['compaction', 'µs per iteration'],
      [
        ['off', fmt(offUs)],
        ['on, never triggered', fmt(onUs)],
        ['difference', fmt(onUs - offUs)],
      ],
    ),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await longStepBench());
