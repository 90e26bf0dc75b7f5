import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  agentTool,
  type ModelRequest,
  ReActAgent,
  Runner,
  stringifyToolOutput,
  tool,
  toolResultsOf,
  offloadToolResults,
} from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { collect } from './support.js';

const NEEDLE = 'the launch code is 7-4-1-9';
const lastShown = (request: ModelRequest | undefined) => (request?.messages ?? []).flatMap((m) => toolResultsOf(m)).at(-1);
/** The output of the tool result the model was shown last. */
const shownOutput = <T>(request: ModelRequest | undefined): T => lastShown(request)?.output as T;
type Search = { matchCount: number; matches: { line: number; offset: number; text: string }[] };

/** Calls `name` (id `big`), searches its result for `pattern`, reads 200 characters at the match, then answers. */
const readingModel = (name: string, pattern: string) =>
  new ScriptedModel({
    responses: [
      callTools({ id: 'big', name, args: { input: 'write the report' } }),
      callTools({ id: 's1', name: 'search_tool_result', args: { toolCallId: 'big', pattern } }),
      (request) => {
        const found = shownOutput<Search>(request);
        return callTools({
          id: 'r1',
          name: 'read_tool_result',
          args: { toolCallId: 'big', offset: found.matches[0]?.offset, length: 200 },
        });
      },
      'Found it.',
    ],
  });

describe('offloading covers every kind of tool result', () => {
  it("an agent tool's long answer is offloaded in the caller: previewed, found by search, read whole from the caller's session", async () => {
    const report = Array.from({ length: 3000 }, (_, i) => (i === 1500 ? NEEDLE : `paragraph ${i} of the child's report`)).join('\n');
    const writer = new ReActAgent({ name: 'writer', model: new ScriptedModel({ responses: [report] }) });
    const model = readingModel('writer', 'launch code');
    const caller = new ReActAgent({
      name: 'caller',
      model,
      tools: [agentTool(writer)],
      middleware: [offloadToolResults({ maxTokens: 500 })],
    });
    const { result } = await collect(new Runner({ agent: caller, appName: 'offload' }).run({ userId: 'u', input: 'go' }));
    expect(result.status).toBe('completed');
    const shown = stringifyToolOutput(lastShown(model.requests[1])?.output);
    expect(shown.length).toBeLessThan(2000 + 600);
    expect(shown).not.toContain(NEEDLE);
    expect(shown).toContain('search_tool_result({ "toolCallId": "big"');
    const search = lastShown(model.requests[2])?.output as Search;
    expect(search.matches[0]).toEqual({ line: 1501, offset: report.indexOf(NEEDLE), text: NEEDLE });
    expect(shownOutput<{ text: string }>(model.requests[3]).text.startsWith(NEEDLE)).toBe(true);
  });

  it('a large structured output is shown, read and searched as indented JSON: a search finds the line of one field', async () => {
    const rows = Array.from({ length: 2000 }, (_, i) => ({ n: i, note: i === 1234 ? NEEDLE : 'filler' }));
    const query = tool({ name: 'query', description: 'Rows', parameters: z.object({ input: z.string() }), execute: () => ({ rows }) });
    const model = readingModel('query', 'launch code');
    const agent = new ReActAgent({ name: 'reader', model, tools: [query], middleware: [offloadToolResults({ maxTokens: 500 })] });
    const { result } = await collect(new Runner({ agent, appName: 'offload' }).run({ userId: 'u', input: 'go' }));
    expect(result.status).toBe('completed');
    const shown = lastShown(model.requests[1])?.output as string;
    expect(shown.startsWith('{\n  "rows": [\n    {\n      "n": 0,')).toBe(true);
    const search = lastShown(model.requests[2])?.output as Search;
    expect(search.matchCount).toBe(1);
    expect(search.matches[0]?.text).toBe(`      "note": "${NEEDLE}"`);
    const read = lastShown(model.requests[3])?.output as { text: string };
    expect(read.text.startsWith(`      "note": "${NEEDLE}"`)).toBe(true);
  });

  it('a match in one very long line is shown as the part around it, with that part’s offset', async () => {
    const line = `${'x'.repeat(50_000)}${NEEDLE}${'y'.repeat(50_000)}`;
    const page = tool({ name: 'page', description: 'A page', parameters: z.object({ input: z.string() }), execute: () => line });
    const model = readingModel('page', '/launch code is \\d/');
    const agent = new ReActAgent({ name: 'reader', model, tools: [page], middleware: [offloadToolResults({ maxTokens: 500 })] });
    await collect(new Runner({ agent, appName: 'offload' }).run({ userId: 'u', input: 'go' }));
    const hit = shownOutput<Search>(model.requests[2]).matches[0];
    expect(hit?.line).toBe(1);
    expect(hit?.text).toContain(NEEDLE);
    expect(hit?.text.length).toBeLessThanOrEqual(502);
    expect(line.slice(hit?.offset, (hit?.offset ?? 0) + 100)).toBe(hit?.text.slice(1, 101)); // '…' first: the offset is where the window starts
  });
});
