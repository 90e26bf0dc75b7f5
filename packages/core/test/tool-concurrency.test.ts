import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ReActAgent, Runner, tool } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { collect, sleep } from './support.js';

/** A tool that sleeps `ms` and records how many calls overlap. */
function slowTools() {
  const probe = { running: 0, maxRunning: 0, finished: [] as string[] };
  const slow = tool({
    name: 'slow',
    description: 'waits',
    parameters: z.object({ label: z.string(), ms: z.number() }),
    execute: async ({ label, ms }) => {
      probe.running++;
      probe.maxRunning = Math.max(probe.maxRunning, probe.running);
      await sleep(ms);
      probe.running--;
      probe.finished.push(label);
      return label;
    },
  });
  return { probe, slow };
}

async function runTurn(toolConcurrency: number, latencies = [100, 100, 100]) {
  const { probe, slow } = slowTools();
  const calls = latencies.map((ms, i) => ({ name: 'slow', args: { label: `t${i}`, ms } }));
  const model = new ScriptedModel({ responses: [callTools(...calls), 'done'] });
  const runner = new Runner({ agent: new ReActAgent({ name: 'a', model, tools: [slow], toolConcurrency }), appName: 'c' });
  const { events, result } = await collect(runner.run({ userId: 'u', input: 'go' }));
  return { probe, events, result };
}

describe('concurrent tool calls', () => {
  it('runs three calls of one turn at once with toolConcurrency >= 3', async () => {
    const { probe, result } = await runTurn(3);
    expect(result.status).toBe('completed');
    expect(probe.maxRunning).toBe(3);
  });

  it('runs them one at a time with toolConcurrency 1', async () => {
    const { probe } = await runTurn(1);
    expect(probe.maxRunning).toBe(1);
    expect(probe.finished).toEqual(['t0', 't1', 't2']);
  });

  it('bounds overlap by toolConcurrency', async () => {
    const { probe } = await runTurn(2, [50, 50, 50, 50, 50]);
    expect(probe.maxRunning).toBe(2);
  });

  it('stores each result as soon as its tool finishes, not in call order', async () => {
    const { events } = await runTurn(3, [120, 10, 60]);
    const order = events
      .filter((e) => e.message?.role === 'tool')
      .map((e) => (e.message?.content[0] as { output: string } | undefined)?.output);
    expect(order).toEqual(['t1', 't2', 't0']);
  });
});
