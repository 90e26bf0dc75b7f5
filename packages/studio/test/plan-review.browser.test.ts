import { InMemorySessionStore, type SessionKey } from '@replan/core';
import { SessionKeys } from '@replan/planexecute';
import type { Page } from 'playwright-core';
import { afterEach, expect, it } from 'vitest';
import { serveStudio, type StudioHandle } from '../src/index.js';
import { statusOf } from '../src/view/session-status.js';
import { describeInBrowser } from './support/browser-suite.js';
import { graphReviewScenario, reviewScenario } from './support/scenarios.js';

let studio: StudioHandle | undefined;
let page: Page | undefined;
afterEach(async () => {
  await page?.close();
  await studio?.close();
  page = undefined;
  studio = undefined;
});

const sessionUrl = (key: SessionKey) =>
  `${studio!.url}#/session?${new URLSearchParams({ app: key.appName, user: key.userId, id: key.id })}`;

describeInBrowser('reviewing a plan from the page', (browser) => {
  /** A run stopped at the planner's plan, and the page open on it. */
  const pending = async (id: string, graph = false) => {
    const store = new InMemorySessionStore();
    const runner = graph ? graphReviewScenario(store) : reviewScenario(store);
    const key = { appName: runner.appName, userId: 'ana', id };
    expect((await runner.run({ userId: key.userId, sessionId: key.id, input: 'Plan the offsite' }).result()).status).toBe('interrupted');
    studio = await serveStudio({ store, runners: [runner] });
    page = await browser().newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(sessionUrl(key));
    await page.waitForSelector('.interrupt[data-reason="plan_review"]');
    const session = async () => (await store.get(key))!;
    const completed = async () => {
      await expect.poll(async () => statusOf((await session()).events).status, { timeout: 15_000 }).toBe('completed');
      return session();
    };
    return { p: page, session, completed };
  };

  it('shows the plan and Approve runs it as written', async () => {
    const { p, completed } = await pending('approve');
    expect(await p.locator('.plan-review .review-steps li').allTextContents()).toEqual(['Draft the agenda', 'Book the room']);
    await p.getByRole('button', { name: 'Approve', exact: true }).click();
    const done = await completed();
    expect(done.state.ApprovedPlan).toEqual({ steps: ['Draft the agenda', 'Book the room'] });
    expect(JSON.stringify(done.events)).toContain('did Draft the agenda');
    await p.waitForSelector('.session-facts .badge[data-status="completed"]', { timeout: 15_000 });
    expect(await p.locator('.interrupt').count()).toBe(0);
  });

  it('Edit changes steps in place; an invalid edit shows the server’s message and leaves the review open', async () => {
    const { p, session, completed } = await pending('edit');
    await p.getByRole('button', { name: 'Edit', exact: true }).click();
    await p.getByRole('button', { name: 'Add step' }).click();
    expect(await p.locator('.review-edit-step').count()).toBe(3);
    // The new step is left empty: the plan schema refuses it at resume, and nothing is stored.
    const before = (await session()).events.length;
    await p.getByRole('button', { name: 'Send edited plan' }).click();
    await p.waitForSelector('.review-error:not([hidden])');
    expect(await p.locator('.review-error').textContent()).toMatch(/plan review.*a step cannot be empty/);
    expect((await session()).events.length).toBe(before);
    expect(await p.locator('.interrupt[data-reason="plan_review"]').count()).toBe(1);
    // Fix it: reword the first step, drop the second, fill the new one.
    await p.getByLabel('Step 1', { exact: true }).fill('Draft a short agenda');
    await p.getByRole('button', { name: 'Remove step 2' }).click();
    await p.getByLabel('Step 2', { exact: true }).fill('Order lunch');
    await p.getByRole('button', { name: 'Send edited plan' }).click();
    const done = await completed();
    expect(done.state.ApprovedPlan).toEqual({ steps: ['Draft a short agenda', 'Order lunch'] });
    expect(done.state[SessionKeys.Plan]).toBeDefined();
    expect(JSON.stringify(done.events)).toContain('did Draft a short agenda');
    expect(JSON.stringify(done.events)).not.toContain('did Draft the agenda');
  });

  it('Reject sends the feedback; the planner plans again and the new plan is reviewed', async () => {
    const { p, session } = await pending('reject');
    await p.getByLabel('Feedback for the planner').fill('Invite the team instead of booking a room');
    await p.getByRole('button', { name: 'Reject', exact: true }).click();
    await p.locator('.plan-review .review-steps', { hasText: 'Invite the team' }).waitFor({ timeout: 15_000 });
    const s = await session();
    expect(statusOf(s.events).status).toBe('interrupted');
    expect(s.state.ApprovedPlan ?? null).toBeNull();
    expect(JSON.stringify(s.events)).toContain('Invite the team instead of booking a room');
    expect(JSON.stringify(s.events)).not.toContain('did ');
  });

  it('Edit in graph mode edits each step’s id, task and dependencies; a dependency on no step is refused', async () => {
    const { p, session, completed } = await pending('graph-edit', true);
    expect(await p.locator('.plan-review .review-steps li').allTextContents()).toEqual(['a: Read offer A', 'b: Read offer B']);
    await p.getByRole('button', { name: 'Edit', exact: true }).click();
    await p.getByLabel('Step 2 id').fill('compare');
    await p.getByLabel('Step 2', { exact: true }).fill('Compare offer A with the budget');
    await p.getByLabel('Step 2 depends on').fill('a, nowhere');
    const before = (await session()).events.length;
    await p.getByRole('button', { name: 'Send edited plan' }).click();
    await p.waitForSelector('.review-error:not([hidden])');
    expect(await p.locator('.review-error').textContent()).toMatch(/plan review.*nowhere/);
    expect((await session()).events.length).toBe(before);
    await p.getByLabel('Step 2 depends on').fill('a');
    await p.getByRole('button', { name: 'Send edited plan' }).click();
    const done = await completed();
    expect(done.state.ApprovedPlan).toEqual({
      steps: [
        { id: 'a', task: 'Read offer A', dependsOn: [] },
        { id: 'compare', task: 'Compare offer A with the budget', dependsOn: ['a'] },
      ],
    });
    expect(JSON.stringify(done.events)).toContain('did Compare offer A with the budget');
    expect(JSON.stringify(done.events)).not.toContain('did Read offer B');
  });
});
