import { z } from 'zod';
import { type ChatModel, type Message, type ModelRequest, messageText, stringifyToolOutput, tool } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';

/** Tokens of a request as the scripted "server" counts them: characters ÷ 4 of everything sent. */
export function serverTokens(request: ModelRequest): number {
  let chars = request.tools ? JSON.stringify(request.tools).length : 0;
  for (const m of request.messages)
    for (const b of m.content)
      chars +=
        b.type === 'text'
          ? b.text.length
          : b.type === 'tool_call'
            ? JSON.stringify(b.args).length + b.name.length
            : b.type === 'tool_result'
              ? stringifyToolOutput(b.output).length + b.name.length
              : 0;
  return Math.ceil(chars / 4) + 4 * request.messages.length;
}

/** The output tokens a server reports: what the model wrote, capped at the request's `settings.maxTokens`. */
const outputOf = (request: ModelRequest, written: number): number => Math.min(written, request.settings?.maxTokens ?? written);

export const requestText = (request: ModelRequest) =>
  request.messages
    .map((m: Message) => messageText(m) + m.content.map((b) => (b.type === 'tool_result' ? stringifyToolOutput(b.output) : '')).join('\n'))
    .join('\n');

export const factOf = (n: number) => `FACT-${n}: value-${n * 7}`;

/**
 * The long step: a source tool returning ~6 KB around one fact per source, an acting model that
 * fetches sources 1..count (reporting its request size as usage), then answers with how many facts
 * it can see; a summarizer that keeps every fact line it is shown. `onCall` sees each model call
 * (which waits for the promise it returns), `onRun` each run of the tool (the tests in child processes count them in a file).
 */
export function longStep(
  count = 60,
  opts: { onCall?: (model: 'act' | 'sum', request: ModelRequest) => void | Promise<void>; onRun?: (n: number) => void } = {},
) {
  const runs: number[] = [];
  let fetched = 0;
  const fetchSource = tool({
    name: 'fetch_source',
    description: 'Fetch one source',
    parameters: z.object({ n: z.number() }),
    execute: ({ n }) => {
      runs.push(n);
      opts.onRun?.(n);
      fetched = Math.max(fetched, n);
      const filler = `Source ${n} says little of interest here. `.repeat(150);
      return `${filler.slice(0, 3000)}\n${factOf(n)}\n${filler.slice(0, 3000)}`;
    },
  });
  const seen: number[] = [];
  const actor = new ScriptedModel({
    id: 'actor',
    respond: async (request) => {
      await opts.onCall?.('act', request);
      // Sources fetched so far, as the request shows them too (every fact is kept, in a summary or a
      // result): a model resumed in another process knows only what it is sent.
      for (const [, n] of requestText(request).matchAll(/FACT-(\d+): /g)) fetched = Math.max(fetched, Number(n));
      const tokens = serverTokens(request);
      seen.push(tokens);
      const usage = { inputTokens: tokens, outputTokens: outputOf(request, 10) };
      if (fetched < count)
        return { message: callTools({ name: 'fetch_source', args: { n: fetched + 1 } }), finishReason: 'tool_calls', usage };
      const text = requestText(request);
      const kept = Array.from({ length: count }, (_, i) => i + 1).filter((n) => text.includes(factOf(n)));
      return {
        message: { role: 'assistant', content: [{ type: 'text', text: `facts kept: ${kept.length}` }] },
        finishReason: 'stop',
        usage,
      };
    },
  });
  const summarizer = new ScriptedModel({
    id: 'summarizer',
    respond: async (request) => {
      await opts.onCall?.('sum', request);
      const facts = requestText(request).match(/FACT-\d+: value-\d+/g) ?? [];
      return {
        message: { role: 'assistant', content: [{ type: 'text', text: [...new Set(facts)].join('\n') }] },
        finishReason: 'stop',
        usage: { inputTokens: serverTokens(request), outputTokens: outputOf(request, 50) },
      };
    },
  });
  return { fetchSource, actor, summarizer: summarizer as ScriptedModel & ChatModel, runs, seen, fetched: () => fetched };
}
