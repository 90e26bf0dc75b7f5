import { InMemorySessionStore } from '@replan/core';
import type { Browser } from 'playwright-core';
import { serveStudio } from '../src/index.js';
import { reviewScenario } from '../test/support/scenarios.js';

/**
 * Writes `studio-plan-review.png` (a plan held for review after a rejection: the new plan, its
 * version diff in the plan panel, Approve / Edit / Reject) and `studio-plan-review-edit.png` (the
 * same review with its steps open for editing) into `out`. The tests' review scenario, offline.
 */
export async function planReviewScreenshots(browser: Browser, out: string): Promise<void> {
  const store = new InMemorySessionStore();
  const runner = reviewScenario(store, 'offsite');
  const first = await runner.run({ userId: 'ana', sessionId: 'offsite-plan', input: 'Plan the team offsite' }).result();
  const review = first.interrupts.find((i) => i.reason === 'plan_review')!;
  await runner
    .resume({ userId: 'ana', sessionId: 'offsite-plan', values: { [review.id]: { reject: 'Invite the team instead of booking a room.' } } })
    .result();
  const studio = await serveStudio({ store, runners: [runner] });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, deviceScaleFactor: 1 });
    await page.goto(`${studio.url}#/session?app=offsite&user=ana&id=offsite-plan`);
    await page.waitForSelector('.interrupt[data-reason="plan_review"]');
    await page.screenshot({ path: `${out}studio-plan-review.png` });
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByRole('button', { name: 'Add step' }).click();
    await page.getByLabel('Step 3', { exact: true }).fill('Order lunch for everyone');
    await page.screenshot({ path: `${out}studio-plan-review-edit.png` });
    await page.close();
  } finally {
    await studio.close();
  }
}
