import { InMemorySessionStore } from '@replan/core';
import type { Page } from 'playwright-core';
import { afterEach, expect, it } from 'vitest';
import { serveStudio, type StudioHandle } from '../src/index.js';
import { describeInBrowser } from './support/browser-suite.js';
import { BUDGET_APP, budgetScenario } from './support/budget-scenario.js';

let studio: StudioHandle | undefined;
let page: Page | undefined;
afterEach(async () => {
  await page?.close();
  await studio?.close();
  page = undefined;
  studio = undefined;
});

describeInBrowser('budgets on the session page', (browser) => {
  /** The budget scenario's session `id`, open in the page. */
  const open = async (id: string): Promise<Page> => {
    const store = new InMemorySessionStore();
    studio = await serveStudio({ store, runners: [await budgetScenario(store)] });
    page = await browser().newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${studio.url}#/session?${new URLSearchParams({ app: BUDGET_APP, user: 'ana', id })}`);
    return page;
  };

  it('the plan review shows the forecast against the budget', async () => {
    const page = await open('review');
    const forecast = page.locator('.plan-review .review-forecast');
    await forecast.waitFor();
    expect(await forecast.getAttribute('data-fits')).toBe('true');
    expect(await forecast.textContent()).toMatch(
      /^Fits the budget: ~800 tokens of [\d,]+ available · ~2 model calls of 4 available · 1 of 3 steps without an estimate$/,
    );
  });

  it('a partial answer says so above the answer, lists the steps not run, and the budget shows used and left', async () => {
    const page = await open('partial');
    await page.waitForSelector('.session-facts .badge[data-status="completed"]');
    const partial = page.locator('.session-head .partial-answer');
    expect(await partial.locator('.block-head').textContent()).toBe(
      'Partial answer: the budget ran low, so the answer below is from the steps done',
    );
    expect(await partial.locator('.not-run li').allTextContents()).toEqual(['Collect the Q3 support tickets', 'Compare the two']);
    const budget = page.locator('.session-head .run-budget');
    expect(await budget.getAttribute('data-on-exhausted')).toBe('answer');
    expect(await budget.textContent()).toMatch(
      /^Last run.s budget: .*model calls 3 used of 3 \(0 left, 1 kept for the answer\) · When it runs low: answer from the steps done$/,
    );
    // The answer comes after the notice, so it is read as partial.
    const order = await page.locator('.session-head > *').evaluateAll((els) => els.map((e) => e.className));
    expect(order.findIndex((c) => c.includes('partial-answer'))).toBeLessThan(order.findIndex((c) => c.includes('block-result')));
  });
});
