import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ConfigurationError,
  type ModelRequest,
  ReActAgent,
  Runner,
  stringifyToolOutput,
  tool,
  toolResultsOf,
  compaction,
  offloadToolResults,
} from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { collect } from './support.js';

const NEEDLE = 'the launch code is 7-4-1-9';
const line = (i: number) => `line ${i}: nothing to see here, just filler text for the report.`;
/** ~400 KB, the needle on one line far from the head and the tail. */
const big = Array.from({ length: 6500 }, (_, i) => (i === 3210 ? NEEDLE : line(i))).join('\n');
const dump = tool({ name: 'dump', description: 'Returns a large report', parameters: z.object({}), execute: () => big });

/** The output of the tool result the model was shown last in `request`. */
const lastShown = (request: ModelRequest | undefined) => {
  const results = (request?.messages ?? []).flatMap((m) => toolResultsOf(m));
  return results.at(-1);
};

describe('toolResults: large results offloaded', () => {
  it('a 400 KB result is stored whole, shown as a preview, and the needle is found by search then read', async () => {
    const model = new ScriptedModel({
      responses: [
        callTools({ id: 'big', name: 'dump', args: {} }),
        callTools({ id: 's1', name: 'search_tool_result', args: { toolCallId: 'big', pattern: 'launch code' } }),
        (request) => {
          const found = lastShown(request)?.output as { matches: { offset: number }[] };
          return callTools({
            id: 'r1',
            name: 'read_tool_result',
            args: { toolCallId: 'big', offset: found.matches[0]?.offset, length: 200 },
          });
        },
        'Found it.',
      ],
    });
    const agent = new ReActAgent({ name: 'reader', model, tools: [dump], middleware: [offloadToolResults({ maxTokens: 1000 })] });
    const { result, events } = await collect(new Runner({ agent, appName: 'offload' }).run({ userId: 'u', input: 'find the code' }));
    expect(result.status).toBe('completed');
    expect(big.length).toBeGreaterThan(400_000);
    // Stored whole: the log keeps every character.
    const stored = events.flatMap((e) => toolResultsOf(e.message)).find((r) => r.toolCallId === 'big');
    expect(stored?.output).toBe(big);
    // Shown shortened, with a note naming the reading tools and the call id.
    const shown = stringifyToolOutput(lastShown(model.requests[1])?.output);
    expect(shown.length).toBeLessThan(4000 + 600);
    expect(shown).not.toContain(NEEDLE);
    expect(shown).toContain('read_tool_result({ "toolCallId": "big"');
    expect(shown.startsWith(line(0))).toBe(true);
    expect(shown).toContain(line(6499));
    // The tools are offered to the model.
    expect(model.requests[0]?.tools?.map((t) => t.name)).toEqual(['dump', 'read_tool_result', 'search_tool_result']);
    const search = lastShown(model.requests[2])?.output as {
      matchCount: number;
      matches: { line: number; offset: number; text: string }[];
    };
    expect(search.matchCount).toBe(1);
    expect(search.matches[0]).toEqual({ line: 3211, offset: big.indexOf(NEEDLE), text: NEEDLE });
    const read = lastShown(model.requests[3])?.output as { text: string; total: number };
    expect(read.text.startsWith(NEEDLE)).toBe(true);
    expect(read.total).toBe(big.length);
  });

  it('small results are shown as they are', async () => {
    const small = tool({ name: 'small', description: 'small', parameters: z.object({}), execute: () => 'short' });
    const model = new ScriptedModel({ responses: [callTools({ name: 'small', args: {} }), 'ok'] });
    const agent = new ReActAgent({ name: 'reader', model, tools: [small], middleware: [offloadToolResults({ maxTokens: 1000 })] });
    await collect(new Runner({ agent, appName: 'offload' }).run({ userId: 'u', input: 'x' }));
    expect(lastShown(model.requests[1])?.output).toBe('short');
  });

  it("another session's id, an unknown id, an offset past the end or a bad regex: an error result the model sees", async () => {
    const model = new ScriptedModel({
      responses: [
        callTools({ id: 'big', name: 'dump', args: {} }),
        'first session done',
        callTools(
          { id: 'a', name: 'read_tool_result', args: { toolCallId: 'big' } },
          { id: 'b', name: 'read_tool_result', args: { toolCallId: 'nope' } },
        ),
        'second done',
      ],
    });
    const agent = new ReActAgent({ name: 'reader', model, tools: [dump], middleware: [offloadToolResults({ maxTokens: 1000 })] });
    const runner = new Runner({ agent, appName: 'offload' });
    await collect(runner.run({ userId: 'u', input: 'one' }));
    // A new session: "big" belongs to the first one.
    await collect(runner.run({ userId: 'u', input: 'two' }));
    const results = (model.requests[3]?.messages ?? []).flatMap((m) => toolResultsOf(m));
    expect(results).toHaveLength(2);
    for (const r of results) {
      expect(r.isError).toBe(true);
      expect(stringifyToolOutput(r.output)).toMatch(/No tool result with id "(big|nope)" in this session/);
    }

    const past = new ScriptedModel({
      responses: [
        callTools({ id: 'big', name: 'dump', args: {} }),
        callTools(
          { id: 'p', name: 'read_tool_result', args: { toolCallId: 'big', offset: big.length + 10 } },
          { id: 'q', name: 'search_tool_result', args: { toolCallId: 'big', pattern: '/(unclosed/' } },
        ),
        'done',
      ],
    });
    const third = new ReActAgent({ name: 'reader', model: past, tools: [dump], middleware: [offloadToolResults({ maxTokens: 1000 })] });
    await collect(new Runner({ agent: third, appName: 'offload' }).run({ userId: 'u', input: 'x' }));
    const [p, q] = (past.requests[2]?.messages ?? []).flatMap((m) => toolResultsOf(m)).slice(-2);
    expect(p?.isError).toBe(true);
    expect(stringifyToolOutput(p?.output)).toContain('is past the end of the result of "big"');
    expect(q?.isError).toBe(true);
    expect(stringifyToolOutput(q?.output)).toContain('is not a valid regular expression');
  });

  it('a tool of the same name, or a maxTokens below 16, is a ConfigurationError', () => {
    const model = new ScriptedModel();
    const clash = tool({ name: 'read_tool_result', description: 'x', parameters: z.object({}), execute: () => 1 });
    expect(() => new ReActAgent({ name: 'a', model, tools: [clash], middleware: [offloadToolResults({ maxTokens: 100 })] })).toThrow(
      /rename your tool/,
    );
    expect(() => new ReActAgent({ name: 'a', model, middleware: [offloadToolResults({ maxTokens: 0 })] })).toThrow(ConfigurationError);
  });
});

describe('toolResults with compaction', () => {
  it('the summarizer sees the previews the model saw, not the whole results', async () => {
    let n = 0;
    const report = tool({
      name: 'report',
      description: 'a large report',
      parameters: z.object({}),
      execute: () => `${'x'.repeat(50_000)}\nFACT-${++n}`,
    });
    const summarizer = new ScriptedModel({ respond: () => 'summary of the reports' });
    const model = new ScriptedModel({
      // Usage as a server would report it (the scripted default is a token count of 10, which calibration would trust).
      respond: (r, call) => ({
        message: call < 12 ? callTools({ name: 'report', args: {} }) : { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
        finishReason: call < 12 ? 'tool_calls' : 'stop',
        usage: { inputTokens: Math.ceil(JSON.stringify(r.messages).length / 4), outputTokens: 1 },
      }),
    });
    const agent = new ReActAgent({
      name: 'reader',
      model,
      tools: [report],
      maxIterations: 20,
      middleware: [offloadToolResults({ maxTokens: 500 }), compaction({ model: summarizer, maxInputTokens: 6000 })],
    });
    const { result, events } = await collect(new Runner({ agent, appName: 'offload' }).run({ userId: 'u', input: 'x' }));
    expect(result.status).toBe('completed');
    expect(summarizer.calls).toBeGreaterThan(0);
    for (const request of summarizer.requests) expect(JSON.stringify(request).length).toBeLessThan(40_000); // previews, not 50 KB results
    // The log still holds every result whole.
    const stored = events.flatMap((e) => toolResultsOf(e.message)).filter((r) => r.name === 'report');
    expect(stored).toHaveLength(12);
    for (const r of stored) expect(String(r.output).length).toBeGreaterThan(50_000);
  });
});
