import { InMemorySessionStore } from '@replan/core';
import type { Browser } from 'playwright-core';
import { serveStudio } from '../src/index.js';
import { runMediaSession } from '../test/support/media-scenario.js';

/**
 * Writes `studio-media.png` into `out`: a session whose input is the invoice-reader example's
 * invoice, opened on that event — the image shown, an SVG and an HTML file offered as downloads.
 * The tests' media scenario, offline.
 */
export async function mediaScreenshots(browser: Browser, out: string): Promise<void> {
  const store = new InMemorySessionStore();
  await runMediaSession(store, 'invoices', 'invoice-42');
  const studio = await serveStudio({ store, apps: ['invoices'], users: ['ana'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, deviceScaleFactor: 1 });
    await page.goto(`${studio.url}#/session?app=invoices&user=ana&id=invoice-42`);
    await page.waitForSelector('.events .event-row');
    await page.locator('.events .event-row[data-index="0"]').click();
    const image = page.locator('.detail img.media-image');
    await image.waitFor();
    // until the picture is decoded (its width known)
    await image.evaluate((img) => (img as unknown as { decode(): Promise<void> }).decode());
    await page.screenshot({ path: `${out}studio-media.png`, fullPage: true });
    await page.close();
  } finally {
    await studio.close();
  }
}
