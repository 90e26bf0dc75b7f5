import { InMemorySessionStore, ReActAgent, Runner, tool } from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { formatSession, renderSession } from '../src/cli/print-session.js';
import { eventRow } from '../src/view/event-views.js';
import { sessionDigest } from '../src/view/session-digest.js';
import { budgetText, forecastText } from '../web/src/budget-text.js';
import { readPlanReview } from '../web/src/plan-review-form.js';
import { BUDGET_APP, budgetScenario } from './support/budget-scenario.js';

describe('budgets in the studio views', () => {
  it('a plan review shows its forecast against the budget: estimate, available, fits, steps without an estimate', async () => {
    const store = new InMemorySessionStore();
    await budgetScenario(store);
    const session = await store.get({ appName: BUDGET_APP, userId: 'ana', id: 'review' });
    const digest = sessionDigest(session!);
    expect(digest.status).toBe('interrupted');
    const review = readPlanReview(digest.interrupts[0]!.payload)!;
    // 6 calls, the planner's spent, 1 kept for the answer; tokens: 5000 less the planner's call
    expect(review.forecast).toMatchObject({
      estimate: { tokens: 800, modelCalls: 2 },
      available: { modelCalls: 4 },
      fits: true,
      unestimated: 1,
      steps: 3,
    });
    expect(forecastText(review.forecast!)).toMatch(
      /^~800 tokens of [\d,]+ available · ~2 model calls of 4 available · 1 of 3 steps without an estimate$/,
    );
  });

  it('a run that answered from partial work says so, lists the steps not run, and shows its budget as it ended', async () => {
    const store = new InMemorySessionStore();
    await budgetScenario(store);
    const digest = sessionDigest((await store.get({ appName: BUDGET_APP, userId: 'ana', id: 'partial' }))!);
    expect(digest.status).toBe('completed');
    expect(digest.partial).toEqual({ notRun: ['Collect the Q3 support tickets', 'Compare the two'] });
    const session = (await store.get({ appName: BUDGET_APP, userId: 'ana', id: 'partial' }))!;
    const answer = session.events.findIndex((e) => e.actions?.final?.partial);
    expect(eventRow(session.events[answer]!, answer).summary).toMatch(/^partial \(2 not run\) · Q3 had 1,240 orders/);
    expect(digest.budget).toMatchObject({
      limits: { modelCalls: 3, tokens: 5000 },
      used: { modelCalls: 3 },
      left: { modelCalls: 0 },
      onExhausted: 'answer',
    });
    expect(budgetText(digest.budget!)).toMatch(
      /^tokens [\d,]+ used of 5,000 \([\d,]+ left, [\d,]+ kept for the answer\) · model calls 3 used of 3 \(0 left, 1 kept for the answer\)$/,
    );
  });

  it('replan show marks the partial answer (the timeline row, and renderRun with the steps not run)', async () => {
    const store = new InMemorySessionStore();
    await budgetScenario(store);
    const session = (await store.get({ appName: BUDGET_APP, userId: 'ana', id: 'partial' }))!;
    expect(formatSession(session)).toMatch(/replanner answer: partial \(2 not run\) · Q3 had/);
    let text = '';
    await renderSession(session, (t) => {
      text += t;
    });
    expect(text).toMatch(/partial: the budget ran low; not run: Collect the Q3 support tickets; Compare the two/);
  });

  it('a run waiting at its plan review has no ended budget yet and no partial answer', async () => {
    const store = new InMemorySessionStore();
    await budgetScenario(store);
    const digest = sessionDigest((await store.get({ appName: BUDGET_APP, userId: 'ana', id: 'review' }))!);
    expect(digest.partial).toBeUndefined();
    expect(digest.budget).toBeUndefined(); // interrupted: the run has not ended, so no end event carries it
  });

  it('a run stopped by its budget shows it; once resumed, not until the resume ends', async () => {
    const store = new InMemorySessionStore();
    const echo = tool({ name: 'echo', description: '', parameters: z.object({}), execute: () => 'again' });
    const model = new ScriptedModel({ respond: () => callTools({ name: 'echo', args: {} }) });
    const runner = new Runner({ agent: new ReActAgent({ name: 'loop', model, tools: [echo] }), appName: BUDGET_APP, sessionStore: store });
    const limits = { maxModelCalls: 1 };
    const stopped = await runner.run({ userId: 'ana', sessionId: 'stop', input: 'go', limits }).result();
    expect(stopped.status).toBe('budget_exceeded');
    const key = { appName: BUDGET_APP, userId: 'ana', id: 'stop' };
    const before = (await store.get(key))!;
    expect(sessionDigest(before).budget).toMatchObject({ limits: { modelCalls: 1 }, used: { modelCalls: 1 }, onExhausted: 'stop' });
    const marker = { id: 'r', invocationId: before.events.at(-1)!.invocationId, author: 'user', path: 'user', timestamp: 2 };
    const resumed = { ...before, events: [...before.events, { ...marker, actions: { resumeValues: {} } }] };
    expect(sessionDigest(resumed).budget).toBeUndefined();
  });

  it('a stored budget that is not numbers is dropped, not shown', () => {
    const base = { invocationId: 'i', author: 'a', path: 'a', timestamp: 1 };
    const events = [
      { ...base, id: 'u', message: { role: 'user' as const, content: [{ type: 'text' as const, text: 'go' }] } },
      { ...base, id: 'e', actions: { invocationEnd: { status: 'completed' as const } }, meta: { budget: { limits: 'x' } } },
    ];
    const digest = sessionDigest({ appName: 'a', userId: 'u', id: 's', version: 1, events, state: {} } as never);
    expect(digest.budget).toBeUndefined();
  });
});
