/**
 * The demo question run offline: each step's result is that step's own finding (a search result
 * that mentions another document must not make a step report another step's result), and the
 * answer carries the computed cost.
 * Run: pnpm exec vitest run --project examples demo
 */
import { InMemorySessionStore } from '@replan/core';
import { planExecuteEventKind } from '@replan/planexecute';
import { expect, it } from 'vitest';
import { demoRunner } from './runners.js';
import { scriptedBrain } from './scripted-brain.js';
import { DOCUMENTS } from './tools.js';

it('the demo run reports each step’s own result, then the yearly cost', async () => {
  const run = demoRunner(new InMemorySessionStore(), scriptedBrain()).run({
    userId: 'demo',
    input: 'How much would our support team pay per year on the Team plan, counting the people who join in March?',
  });
  const results: string[] = [];
  for await (const event of run) {
    const kind = planExecuteEventKind(event);
    if (kind?.kind === 'step-result') results.push(String(kind.executedStep.result));
  }
  expect(results).toEqual([
    'The support team will have 15 people after March (12 today + 3 joining).',
    'The Team plan costs 39 EUR per seat per month.',
    'Annual billing gives a 15% discount.',
    'The yearly cost is 5967 EUR.',
  ]);
  const result = await run.result();
  expect(result.status).toBe('completed');
  expect(result.output).toContain('5967 EUR per year');
});

it('each search step reports what the documents it found say', async () => {
  const pricing = DOCUMENTS.find((d) => d.id === 'pricing') as { text: string };
  const before = pricing.text;
  // The same question over a price list that changed: the step reports the new price, not a script's.
  pricing.text = before.replace('The Team plan costs 39 EUR', 'The Team plan costs 35 EUR');
  try {
    const run = demoRunner(new InMemorySessionStore(), scriptedBrain()).run({ userId: 'demo', input: 'How much per year?' });
    const results: string[] = [];
    for await (const event of run) {
      const kind = planExecuteEventKind(event);
      if (kind?.kind === 'step-result') results.push(String(kind.executedStep.result));
    }
    expect(results[1]).toBe('The Team plan costs 35 EUR per seat per month.');
  } finally {
    pricing.text = before;
  }
});
