/**
 * The answers `pnpm demo --review` builds from what is typed, checked as the engine checks them.
 * Run: pnpm exec vitest run --project examples review-prompt
 */
import { PassThrough } from 'node:stream';
import { InMemorySessionStore, type RunResult } from '@replan/core';
import { PLAN_REVIEW, planExecuteEventKind, planReviewAnswerProblem, type PlanReviewPayload } from '@replan/planexecute';
import { describe, expect, it, vi } from 'vitest';
import { demoRunner } from './runners.js';
import { scriptedBrain } from './scripted-brain.js';
import { askReview, editAnswer, lineAsker, rejectAnswer, ReviewInputClosedError, reviewChoice } from './review-prompt.js';

/** An `ask` that replies with the given lines in order and records the questions. */
function script(lines: string[]) {
  const questions: string[] = [];
  const ask = async (question: string) => {
    questions.push(question);
    const line = lines.shift();
    if (line === undefined) throw new Error(`no scripted line left for ${JSON.stringify(question)}`);
    return line;
  };
  return { ask, questions };
}

describe('the demo review prompt', () => {
  it('parses a choice, an edit one step per line and a rejection', () => {
    expect(['a', ' Approve ', 'e', 'EDIT', 'r', 'reject', '', 'yes'].map(reviewChoice)).toEqual([
      'approve',
      'approve',
      'edit',
      'edit',
      'reject',
      'reject',
      undefined,
      undefined,
    ]);
    expect(editAnswer(['  find a ', '', 'add b'])).toEqual({ edit: { steps: ['find a', 'add b'] } });
    expect(editAnswer(['', '  '])).toBeUndefined();
    expect(rejectAnswer(' check the discounts ')).toEqual({ reject: 'check the discounts' });
    expect(rejectAnswer('   ')).toBeUndefined();
  });

  it('asks until it has an answer, and every answer is one the review accepts', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const approve = await askReview(script(['what?', 'a']).ask);
    expect(approve).toEqual({ approve: true });

    const edited = script(['e', '', 'e', 'find the price', 'compute the cost', '']);
    const edit = await askReview(edited.ask);
    expect(edit).toEqual({ edit: { steps: ['find the price', 'compute the cost'] } });
    expect(edited.questions.filter((q) => q.includes('step')).length).toBe(4); // an empty edit asked again

    const reject = await askReview(script(['r', ' ', 'r', 'use the billing document']).ask);
    expect(reject).toEqual({ reject: 'use the billing document' });

    for (const answer of [approve, edit, reject]) expect(planReviewAnswerProblem(answer)).toBeUndefined();
    vi.restoreAllMocks();
  });
});

describe('lineAsker', () => {
  it('keeps lines typed ahead (a plan pasted in one go), and rejects once the input ends', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    output.resume();
    const terminal = lineAsker(input, output);
    input.write('e\nfind the price\ncompute the cost\n\n');
    await new Promise((resolve) => setImmediate(resolve)); // the lines arrive before any question
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    expect(await askReview(terminal.ask)).toEqual({ edit: { steps: ['find the price', 'compute the cost'] } });
    input.end();
    await expect(askReview(terminal.ask)).rejects.toThrow(ReviewInputClosedError);
    terminal.close();
    vi.restoreAllMocks();
  });
});

describe('the demo with review', () => {
  it('stops at the plan and at the revision that changes it, and completes once both are answered', async () => {
    const runner = demoRunner(new InMemorySessionStore(), scriptedBrain(), { review: true });
    let result: RunResult = await runner.run({ userId: 'demo', input: 'How much per year?' }).result();
    const reviews: PlanReviewPayload[] = [];
    for (
      let open = result.interrupts.find((i) => i.reason === PLAN_REVIEW);
      open;
      open = result.interrupts.find((i) => i.reason === PLAN_REVIEW)
    ) {
      reviews.push(open.payload as PlanReviewPayload);
      const answer = await askReview(script(['a']).ask);
      result = await runner.resume({ userId: 'demo', sessionId: result.sessionId, values: { [open.id]: answer } }).result();
    }
    expect(reviews.map((r) => r.role)).toEqual(['planner', 'replanner']);
    // The revision puts the billing step in the cost step's place and adds the discounted cost step.
    expect(reviews[1]?.diff).toEqual({
      added: ['Compute the yearly cost for 15 seats at 39 EUR per month with the annual discount applied.'],
      removed: [],
      changed: [
        {
          before: 'Compute the yearly cost for that many seats on the Team plan.',
          after: 'Find the discount for annual billing (search the billing document).',
        },
      ],
    });
    expect(result.status).toBe('completed');
    expect(result.output).toContain('5967 EUR per year');
  });
});

describe('the demo with an edited plan', () => {
  it('runs a step you wrote: it searches the documents for what it says; later reviews approved, the run completes', async () => {
    const runner = demoRunner(new InMemorySessionStore(), scriptedBrain(), { review: true });
    let result: RunResult = await runner.run({ userId: 'demo', input: 'How much per year?' }).result();
    let answer: unknown = { edit: { steps: ['annual billing discount'] } };
    for (
      let open = result.interrupts.find((i) => i.reason === PLAN_REVIEW);
      open;
      open = result.interrupts.find((i) => i.reason === PLAN_REVIEW)
    ) {
      result = await runner.resume({ userId: 'demo', sessionId: result.sessionId, values: { [open.id]: answer } }).result();
      answer = { approve: true };
    }
    expect(result.status).toBe('completed');
    const session = await runner.sessionStore.get({ appName: runner.appName, userId: 'demo', id: result.sessionId });
    const first = (session?.events ?? []).map((e) => planExecuteEventKind(e)).find((k) => k?.kind === 'step-result');
    expect(first?.kind === 'step-result' && first.executedStep.result).toMatch(/^For "annual billing discount": \[billing\]/);
  });
});
