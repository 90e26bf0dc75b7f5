import { InMemorySessionStore } from '@replan/core';
import type { Browser } from 'playwright-core';
import { serveStudio } from '../src/index.js';
import { memoryScenario } from '../test/support/memory-scenario.js';

/**
 * Writes `studio-memory.png` into `out`: a run that reused a past plan, the reuse selected in the
 * timeline (the past objective, the session it came from, its similarity). The tests' memory
 * scenario, offline.
 */
export async function memoryScreenshot(browser: Browser, out: string): Promise<void> {
  const store = new InMemorySessionStore();
  const { runner, reused } = await memoryScenario(store);
  const studio = await serveStudio({ store, runners: [runner] });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, deviceScaleFactor: 1 });
    await page.goto(`${studio.url}#/session?app=${runner.appName}&user=ana&id=${reused}`);
    const row = page.locator('.events .event-row', { hasText: 'Reused a past plan' });
    await row.first().waitFor();
    await row.first().click();
    await page.waitForSelector('.detail .block-memory');
    await page.screenshot({ path: `${out}studio-memory.png`, fullPage: true });
    await page.close();
  } finally {
    await studio.close();
  }
}
