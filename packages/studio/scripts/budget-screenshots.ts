import { InMemorySessionStore } from '@replan/core';
import type { Browser } from 'playwright-core';
import { serveStudio } from '../src/index.js';
import { BUDGET_APP, budgetScenario } from '../test/support/budget-scenario.js';

/**
 * Writes `studio-budget-review.png` (a plan review with its forecast against the budget) and
 * `studio-partial-answer.png` (a run that answered from partial work: the notice, the steps not
 * run, the budget used and left) into `out`. The tests' budget scenario, offline.
 */
export async function budgetScreenshots(browser: Browser, out: string): Promise<void> {
  const store = new InMemorySessionStore();
  const runner = await budgetScenario(store);
  const studio = await serveStudio({ store, runners: [runner] });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, deviceScaleFactor: 1 });
    await page.goto(`${studio.url}#/session?app=${BUDGET_APP}&user=ana&id=review`);
    await page.waitForSelector('.plan-review .review-forecast');
    await page.screenshot({ path: `${out}studio-budget-review.png` });
    await page.goto(`${studio.url}#/session?app=${BUDGET_APP}&user=ana&id=partial`);
    await page.waitForSelector('.session-head .partial-answer');
    await page.screenshot({ path: `${out}studio-partial-answer.png` });
    await page.close();
  } finally {
    await studio.close();
  }
}
