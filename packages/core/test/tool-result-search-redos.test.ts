import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ReActAgent, Runner, stringifyToolOutput, tool, toolResultsOf, offloadToolResults } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { collect } from './support.js';

/** Many lines of 40 `a`s then a `!`: `/(a+)+$/` backtracks 2^40 steps on each. */
const hostile = Array.from({ length: 200 }, () => `${'a'.repeat(40)}!`).join('\n');
const dump = tool({ name: 'dump', description: 'Returns a large report', parameters: z.object({}), execute: () => hostile });

async function searchWith(pattern: string) {
  const model = new ScriptedModel({
    responses: [
      callTools({ id: 'big', name: 'dump', args: {} }),
      callTools({ id: 's', name: 'search_tool_result', args: { toolCallId: 'big', pattern } }),
      'done',
    ],
  });
  const agent = new ReActAgent({ name: 'reader', model, tools: [dump], middleware: [offloadToolResults({ maxTokens: 100 })] });
  const { result } = await collect(new Runner({ agent, appName: 'redos' }).run({ userId: 'u', input: 'search' }));
  expect(result.status).toBe('completed');
  return (model.requests[2]?.messages ?? []).flatMap((m) => toolResultsOf(m)).at(-1);
}

describe('search_tool_result: a model-written regex never blocks the process', () => {
  it('a catastrophic /(a+)+$/ is stopped at its deadline and answered with an error result, while timers keep firing', async () => {
    let ticks = 0;
    let longestGap = 0;
    let last = Date.now();
    const timer = setInterval(() => {
      const now = Date.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
      ticks++;
    }, 20);
    const started = Date.now();
    try {
      const shown = await searchWith('/(a+)+$/');
      expect(shown?.isError).toBe(true);
      expect(stringifyToolOutput(shown?.output)).toMatch(/ran for more than \d+ ms and was stopped.*simpler pattern/);
    } finally {
      clearInterval(timer);
    }
    expect(Date.now() - started).toBeLessThan(10_000);
    // The main thread stayed free: the interval fired all along (a blocked loop shows one gap of seconds).
    expect(ticks).toBeGreaterThan(20);
    expect(longestGap).toBeLessThan(1000);
  });

  it('an ordinary regex still finds its lines (with offsets), and an over-long pattern is refused', async () => {
    const found = await searchWith('/a{40}!$/');
    expect(found?.isError).toBeFalsy();
    const output = found?.output as { matchCount: number; matches: { line: number; offset: number }[]; truncated?: boolean };
    expect(output.matchCount).toBe(200);
    expect(output.matches[1]).toMatchObject({ line: 2, offset: 42 });
    expect(output.truncated).toBe(true);

    const long = await searchWith(`/${'a'.repeat(2000)}/`);
    expect(long?.isError).toBe(true);
    expect(stringifyToolOutput(long?.output)).toContain('at most 1000 are allowed');
  });
});
