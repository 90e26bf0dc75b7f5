import { InMemorySessionStore } from '@replan/core';
import type { Page } from 'playwright-core';
import { afterEach, expect, it } from 'vitest';
import { serveStudio, type StudioHandle } from '../src/index.js';
import { describeInBrowser } from './support/browser-suite.js';
import { memoryScenario } from './support/memory-scenario.js';

let studio: StudioHandle | undefined;
let page: Page | undefined;
afterEach(async () => {
  await page?.close();
  await studio?.close();
  page = undefined;
  studio = undefined;
});

describeInBrowser('long-term memory in the timeline', (browser) => {
  it('a reused plan and the past plans recalled show in the timeline and the detail, as text', async () => {
    const store = new InMemorySessionStore();
    const { runner, planned, reused } = await memoryScenario(store);
    studio = await serveStudio({ store, runners: [runner] });
    page = await browser().newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${studio.url}#/session?${new URLSearchParams({ app: runner.appName, user: 'ana', id: reused })}`);
    const row = page.locator('.events .event-row', { hasText: 'Reused a past plan (as written)' });
    await row.first().waitFor();
    await row.first().click();
    await page.waitForSelector('.detail .block-memory');
    expect(await page.locator('.detail .block-memory .block-head').textContent()).toBe('Memory · Reused a past plan (as written)');
    expect(await page.locator('.detail .block-memory li').textContent()).toBe(
      `plan · session ${planned} · score 1.00 Book the cheapest flight from Lisbon to Porto`,
    );
    const recalled = page.locator('.events .event-row', { hasText: 'Recalled 1 past plan' });
    await recalled.first().click();
    await page.waitForSelector('.detail .block-memory .block-head >> text=Recalled 1 past plan');
    expect(await page.locator('.detail .block-memory li .muted').textContent()).toMatch(
      new RegExp(`^plan · session ${planned} · score \\d+\\.\\d\\d $`),
    );
  });
});
