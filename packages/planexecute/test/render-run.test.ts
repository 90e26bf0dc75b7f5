import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Runner, tool } from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';
import { createExecutor, createPlanExecuteAgent, createPlanner, createReplanner } from '@replan/planexecute';
import { renderRun } from '@replan/planexecute/terminal';
import { graphCall, graphHarness } from './graph-support.js';
import { respondCall } from './support.js';

/** A non-TTY target that keeps what was written. */
function capture() {
  let text = '';
  const write = (t: string) => {
    text += t;
  };
  return { out: { write }, lines: () => text.split('\n') };
}

const lookup = tool({ name: 'lookup', description: 'looks up', parameters: z.object({ q: z.string() }), execute: ({ q }) => `found ${q}` });

describe('renderRun (plain lines when not a TTY)', () => {
  it('prints the plan, steps numbered as shown, tool calls, a kept and a revised plan, the answer and usage per step', async () => {
    const planner = new ScriptedModel({
      id: 'p',
      responses: [callTools({ name: 'plan', args: { steps: ['find a', 'find b', 'add them'] } })],
    });
    const executor = new ScriptedModel({
      id: 'x',
      responses: [callTools({ name: 'lookup', args: { q: 'a' } }), 'a is 1', 'b is 2', 'sum is 3'],
    });
    const replanner = new ScriptedModel({
      id: 'r',
      responses: [
        callTools({ name: 'plan', args: { steps: ['find b', 'add them'] } }), // keeps the rest
        callTools({ name: 'plan', args: { steps: ['add a and b'] } }), // changes it
        respondCall('3'),
      ],
    });
    const agent = createPlanExecuteAgent({
      planner: createPlanner({ model: planner }),
      executor: createExecutor({ model: executor, tools: [lookup] }),
      replanner: createReplanner({ model: replanner }),
    });
    const runner = new Runner({ agent, appName: 'x', prices: { x: { inputPerMillion: 1e6, outputPerMillion: 0 } } });
    const { out, lines } = capture();
    const result = await renderRun(runner.run({ userId: 'u', input: 'a + b?' }), { out, objective: 'a + b?', syntheticUsage: true });
    expect(result.status).toBe('completed');
    const text = lines().map((l) => l.replace(/\d+(\.\d+)? (ms|s)\b/g, 'T')); // timings vary
    expect(text.join('\n').includes(String.fromCharCode(27))).toBe(false); // no colour codes (ESC)
    expect(text).toEqual([
      '◆ Objective a + b?',
      '├─ Plan',
      '│   1. find a',
      '│   2. find b',
      '│   3. add them',
      '├─ Step 1 find a',
      '│  ├─ tool lookup {"q":"a"}',
      '│  ├─ returned found a',
      '│  └─ done T · 30 tokens (synthetic) a is 1',
      '├─ Plan continues (the replanner kept the remaining steps)',
      '│   2. find b',
      '│   3. add them',
      '├─ Step 2 find b',
      '│  └─ done T · 15 tokens (synthetic) b is 2',
      '├─ Revised plan (the replanner changed the remaining steps)',
      '│   3. add a and b',
      '├─ Step 3 add a and b',
      '│  └─ done T · 15 tokens (synthetic) sum is 3',
      '└─ Answer 3',
      '',
      'Per step (synthetic: scripted model)',
      '  Step 1  2 calls · 20 in / 10 out · $20.0000 · model time T · 1 tool call',
      '  Step 2  1 call · 10 in / 5 out · $10.0000 · model time T',
      '  Step 3  1 call · 10 in / 5 out · $10.0000 · model time T',
      'status completed · 8 model calls · 1 tool call · tokens 80 in / 40 out (synthetic: scripted model) · cost $40.0000',
      '',
    ]);
  });

  it('adds prompt-cache reads and writes to the usage lines when the models report them', async () => {
    const usage = { inputTokens: 100, outputTokens: 10, cachedTokens: 60, cacheWriteTokens: 30 };
    const agent = createPlanExecuteAgent({
      planner: createPlanner({
        model: new ScriptedModel({ id: 'p', responses: [callTools({ name: 'plan', args: { steps: ['only'] } })], usage }),
      }),
      executor: createExecutor({ model: new ScriptedModel({ id: 'x', responses: ['done'], usage }) }),
      replanner: createReplanner({ model: new ScriptedModel({ id: 'r', responses: [respondCall('ok')], usage }) }),
    });
    const { out, lines } = capture();
    await renderRun(new Runner({ agent, appName: 'x' }).run({ userId: 'u', input: 'go' }), { out });
    expect(lines()).toContainEqual(
      expect.stringMatching(/^ {2}Step 1 {2}1 call · 100 in \/ 10 out · 60 cached · 30 cache write · model time /),
    );
    expect(lines()).toContain('status completed · 3 model calls · tokens 300 in / 30 out · 180 cached · 90 cache write');
  });

  it('graph mode: steps by id with dependencies, lines tagged by step, a failed step', async () => {
    const h = graphHarness({
      planner: [graphCall(['a', 'task a', []], ['b', 'task b after $a', ['a']])],
      steps: { 'task a': [new Error('model down')], 'task b after $a': ['B'] },
      replanner: [respondCall('gave up on a')],
    });
    const { out, lines } = capture();
    const result = await renderRun(h.runner.run({ userId: 'u', input: 'go' }), { out });
    const text = lines().map((l) => l.replace(/\d+(\.\d+)? (ms|s)\b/g, 'T'));
    expect(text.slice(0, 3)).toEqual(['├─ Plan', '│   a. task a', '│   b. task b after $a (after a)']);
    expect(text).toContainEqual(expect.stringMatching(/^│ {2}\[a\] └─ failed T /));
    expect(text).toContain('└─ Answer gave up on a');
    expect(text.some((l) => l.startsWith('├─ Step b'))).toBe(false); // b never started
    expect(result.status).toBe('completed');
  });
});

describe('renderRun: a tool waiting for approval', () => {
  const book = tool({
    name: 'bookFlight',
    description: 'books',
    parameters: z.object({ flight: z.string() }),
    needsApproval: true,
    execute: ({ flight }) => `booked ${flight}`,
  });
  const runnerFor = (executorReplies: unknown[]) =>
    new Runner({
      appName: 'trips',
      agent: createPlanExecuteAgent({
        planner: createPlanner({ model: new ScriptedModel({ responses: [callTools({ name: 'plan', args: { steps: ['book TP101'] } })] }) }),
        executor: createExecutor({ model: new ScriptedModel({ responses: executorReplies as never[] }), tools: [book] }),
        replanner: createReplanner({ model: new ScriptedModel({ responses: [respondCall('Not booked: you said no.')] }) }),
      }),
    });

  it('shows what waits, its interrupt id and how to answer it; then how it was answered', async () => {
    const runner = runnerFor([callTools({ name: 'bookFlight', args: { flight: 'TP101' }, id: 'b1' }), 'The booking was refused.']);
    const first = capture();
    const stopped = await renderRun(runner.run({ userId: 'u', sessionId: 's', input: 'book' }), first);
    expect(stopped.status).toBe('interrupted');
    const text = first.lines().join('\n');
    expect(text).toContain('├─ Waiting for approval bookFlight {"flight":"TP101"}');
    expect(text).toContain('answer b1:approval: runner.resume({ userId, sessionId, approvals: { "b1:approval": true } })');
    expect(text).toMatch(/status interrupted/);
    expect(text).toContain('waiting on b1:approval');

    const second = capture();
    await renderRun(
      runner.resume({ userId: 'u', sessionId: 's', approvals: { 'b1:approval': { approved: false, message: 'too dear' } } }),
      second,
    );
    expect(second.lines().join('\n')).toContain('├─ Not approved b1:approval: too dear');
  });
});
