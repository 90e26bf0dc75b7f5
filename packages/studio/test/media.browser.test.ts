import { InMemorySessionStore } from '@replan/core';
import type { Page } from 'playwright-core';
import { afterEach, expect, it } from 'vitest';
import { serveStudio, type StudioHandle } from '../src/index.js';
import { describeInBrowser } from './support/browser-suite.js';
import { HOSTILE_HTML, runMediaSession } from './support/media-scenario.js';

let studio: StudioHandle | undefined;
let page: Page | undefined;
afterEach(async () => {
  await page?.close();
  await studio?.close();
  page = undefined;
  studio = undefined;
});

describeInBrowser('images and files in a session', (browser) => {
  it('shows the input image in the event, offers SVG and HTML as downloads only, and the tool’s image in its result', async () => {
    const store = new InMemorySessionStore();
    expect((await runMediaSession(store, 'invoices', 'inv-1')).status).toBe('completed');
    studio = await serveStudio({ store, apps: ['invoices'], users: ['ana'] });
    page = await browser().newPage({ acceptDownloads: true });
    await page.goto(`${studio.url}#/session?${new URLSearchParams({ app: 'invoices', user: 'ana', id: 'inv-1' })}`);
    await page.waitForSelector('.events .event-row');
    expect(await page.locator('.events .event-row[data-index="0"] .event-summary').textContent()).toBe(
      'What is the total of this invoice? [image image/png] [image image/svg+xml] [file page.html (text/html)]',
    );
    await page.locator('.events .event-row[data-index="0"]').click();
    const image = page.locator('.detail img.media-image');
    await expect
      .poll(() => image.evaluate((img) => (img as unknown as { complete: boolean; naturalWidth: number }).naturalWidth))
      .toBe(466);
    // the picture came from an object URL the page made from the token-guarded fetch
    expect(await image.getAttribute('src')).toMatch(/^blob:/);
    expect(await page.locator('.detail img').count()).toBe(1);
    expect(await page.locator('.detail figcaption').allTextContents()).toEqual([
      expect.stringMatching(/^image · image\/png · 20\.\d KB$/),
      expect.stringMatching(/^image · image\/svg\+xml · \d+ B$/),
      expect.stringMatching(/^page\.html · text\/html · \d+ B$/),
    ]);
    // the HTML file is saved, never opened: the page stays, nothing of it ran
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download page.html (text/html)' }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe('page.html');
    expect(await saved.createReadStream().then(async (s) => Buffer.concat(await s.toArray()).equals(HOSTILE_HTML))).toBe(true);
    await page.getByRole('button', { name: 'Download image (image/svg+xml)' }).click();
    expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(page.url()).toContain('#/session');
    // the tool's result: its text, and its image shown under it
    await page.locator('.events .event-row', { hasText: 'crop_total →' }).click();
    await page.waitForSelector('.detail .block-tool-result img.media-image');
    expect(await page.locator('.detail .block-tool-result pre').textContent()).toBe('the total line\n[image image/png]');
  });
});
