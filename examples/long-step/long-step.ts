/**
 * A long plan step that fits its window, offline: one step fetches 60 sources of ~6 KB (~90k tokens
 * in all) under a 24k-token window with compaction on; then a 400 KB tool result is offloaded and the
 * model finds its needle with `search_tool_result`. The models are scripted: the plan–execute roles
 * with `scriptPlanExecute` (the step answers from what its model is shown, a compaction's summary
 * included), reporting usage as a real tokenizer would (about 3.5 characters a token, not the
 * estimate's 4); the summarizer and the reader with `ScriptedModel`.
 */
import { z } from 'zod';
import {
  compaction,
  type ModelRequest,
  offloadToolResults,
  ReActAgent,
  Runner,
  stringifyToolOutput,
  tool,
  toolResultsOf,
} from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';

export const WINDOW = 24_000;
export const SOURCES = 60;
export const fact = (n: number) => `FACT-${n}: source ${n} reports ${n * 7} units`;
const FACTS = /FACT-\d+: source \d+ reports \d+ units/g;
const filler = 'The committee met, reviewed the minutes and adjourned without further business. ';

/** Every character the model is shown in `request` (text and tool results). */
export const text = (request: ModelRequest) =>
  request.messages
    .flatMap((m) => m.content.map((b) => (b.type === 'text' ? b.text : b.type === 'tool_result' ? stringifyToolOutput(b.output) : '')))
    .join('\n');
/** What a real tokenizer would report: ~3.5 characters a token, a few tokens per message and per tool. */
export const reportedTokens = (request: ModelRequest) =>
  Math.ceil(text(request).length / 3.5) + 4 * request.messages.length + 50 * (request.tools?.length ?? 0);
const factsIn = (s: string) => [...new Set(s.match(FACTS) ?? [])];

export interface LongStepOutcome {
  readonly status: string;
  readonly compactions: number;
  readonly summarizerCalls: number;
  /** The largest request the executor's model was sent, in its reported input tokens. */
  readonly largestRequest: number;
  /** What the step would have sent at its end without compaction (the same count). */
  readonly uncompactedEstimate: number;
  readonly factsInAnswer: number;
  readonly answer: string | undefined;
}

/** One step reads 60 sources; the answer must keep every fact. */
export async function longStep(): Promise<LongStepOutcome> {
  let largestRequest = 0;
  const source = tool({
    name: 'fetch_source',
    description: 'Fetch one source by number',
    parameters: z.object({ n: z.number() }),
    execute: ({ n }) => `${filler.repeat(36)}\n${fact(n)}\n${filler.repeat(36)}`, // ~6 KB, one fact in the middle
  });
  const task = `Read sources 1–${SOURCES} and list every fact`;
  const roles = scriptPlanExecute(
    {
      plan: { steps: [task] },
      steps: {
        // Each call: the source after the last fact it can still see (verbatim or in a summary);
        // once it has seen the last one, the step's answer is every fact it can still see.
        [task]: {
          turn: ({ request, text }) => {
            largestRequest = Math.max(largestRequest, reportedTokens(request));
            const seen = factsIn(text);
            const last = Math.max(0, ...seen.map((f) => Number(/\d+/.exec(f)?.[0])));
            return last < SOURCES ? { toolCalls: { name: 'fetch_source', args: { n: last + 1 } } } : { text: seen.join('\n') };
          },
        },
      },
      // The replanner answers with the facts of the step's result.
      answer: (results) => factsIn(results[task] ?? '').join('\n'),
    },
    { contextWindow: WINDOW, usage: (request) => ({ inputTokens: reportedTokens(request), outputTokens: 20 }) },
  );
  // A cheap summarizer that keeps every fact (the default instruction asks for that).
  const summarizer = new ScriptedModel({ respond: (request) => factsIn(text(request)).join('\n') });
  const agent = createPlanExecuteAgent({
    model: roles.executorModel,
    plannerModel: roles.plannerModel,
    executorModel: roles.executorModel,
    replannerModel: roles.replannerModel,
    tools: [source],
    stepMaxIterations: SOURCES + 10,
    // Compaction on the executor only: maxInputTokens is the executor model's contextWindow.
    middleware: { executor: [compaction({ model: summarizer })] },
  });
  const run = new Runner({ agent, appName: 'long-step' }).run({ userId: 'me', input: 'Collect every fact from the 60 sources.' });
  let compactions = 0;
  for await (const event of run) if (event.actions?.compaction) compactions++;
  const result = await run.result();
  const oneSource = Math.ceil((filler.length * 72 + 60) / 3.5);
  return {
    status: result.status,
    compactions,
    summarizerCalls: summarizer.calls,
    largestRequest,
    uncompactedEstimate: oneSource * SOURCES,
    factsInAnswer: factsIn(result.output ?? '').length,
    answer: result.output,
  };
}

export const NEEDLE = 'the launch code is 7-4-1-9';
const line = (i: number) => `line ${i}: nothing to see here, just filler text for the report.`;
/** ~400 KB, the needle on one line far from the head and the tail. */
export const archive = Array.from({ length: 6500 }, (_, i) => (i === 3210 ? NEEDLE : line(i))).join('\n');

export interface OffloadOutcome {
  readonly resultChars: number;
  /** How many characters of the result the model was shown when it came back. */
  readonly shownChars: number;
  readonly searchHits: number;
  readonly answer: string | undefined;
}

/** A 400 KB result: the model sees a preview and finds the needle with `search_tool_result`. */
export async function bigResult(): Promise<OffloadOutcome> {
  const dump = tool({ name: 'fetch_archive', description: 'Returns the whole archive', parameters: z.object({}), execute: () => archive });
  const lastResult = (request: ModelRequest) => (request.messages ?? []).flatMap((m) => toolResultsOf(m)).at(-1);
  let shownChars = 0;
  let searchHits = 0;
  const model = new ScriptedModel({
    responses: [
      callTools({ id: 'archive', name: 'fetch_archive', args: {} }),
      (request) => {
        shownChars = stringifyToolOutput(lastResult(request)?.output).length;
        return callTools({ name: 'search_tool_result', args: { toolCallId: 'archive', pattern: 'launch code' } });
      },
      (request) => {
        const found = lastResult(request)?.output as { matchCount: number; matches: { text: string }[] };
        searchHits = found.matchCount;
        return `Found it: ${found.matches[0]?.text}`;
      },
    ],
  });
  const agent = new ReActAgent({ name: 'reader', model, tools: [dump], middleware: [offloadToolResults({ maxTokens: 1000 })] });
  const result = await new Runner({ agent, appName: 'long-step' }).run({ userId: 'me', input: 'Find the launch code.' }).result();
  return { resultChars: archive.length, shownChars, searchHits, answer: result.output };
}
