import { InMemorySessionStore } from '@replan/core';
import type { Browser } from 'playwright-core';
import { serveStudio } from '../src/index.js';
import { compactionScenario } from '../test/support/compaction-scenario.js';

/**
 * Writes `studio-compaction.png` into `out`: a step whose context was compacted, the first
 * compaction selected in the timeline (turns summarised, tokens before and after, the summarizer's
 * usage) and its summary in the detail. The tests' compaction scenario, offline.
 */
export async function compactionScreenshot(browser: Browser, out: string): Promise<void> {
  const store = new InMemorySessionStore();
  const runner = compactionScenario(store);
  await runner.run({ userId: 'ana', sessionId: 'field-readings', input: 'Collect every reading from the field reports.' }).result();
  const studio = await serveStudio({ store, runners: [runner] });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, deviceScaleFactor: 1 });
    await page.goto(`${studio.url}#/session?app=${runner.appName}&user=ana&id=field-readings`);
    await page.waitForSelector('.events .kind-compaction');
    await page
      .locator('.events .event-row', { has: page.locator('.kind-compaction') })
      .first()
      .click();
    await page.waitForSelector('.detail .block-compaction');
    await page.screenshot({ path: `${out}studio-compaction.png`, fullPage: true });
    await page.close();
  } finally {
    await studio.close();
  }
}
