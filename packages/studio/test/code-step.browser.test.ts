import { InMemorySessionStore } from '@replan/core';
import type { Page } from 'playwright-core';
import { afterEach, expect, it } from 'vitest';
import { serveStudio, type StudioHandle } from '../src/index.js';
import { describeInBrowser } from './support/browser-suite.js';
import { CODE_PROGRAM, codeStepScenario } from './support/code-step-scenario.js';

let studio: StudioHandle | undefined;
let page: Page | undefined;
afterEach(async () => {
  await page?.close();
  await studio?.close();
  page = undefined;
  studio = undefined;
});

describeInBrowser('a code step on the page', (browser) => {
  it("the step shows the program as text and the calls it made nested under it; inner rows sit below the code call's", async () => {
    const store = new InMemorySessionStore();
    const runner = codeStepScenario(store);
    expect((await runner.run({ userId: 'ana', sessionId: 'inv', input: 'Flag the large invoices.' }).result()).status).toBe('completed');

    studio = await serveStudio({ store, runners: [runner] });
    page = await browser().newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`${studio.url}#/session?${new URLSearchParams({ app: runner.appName, user: 'ana', id: 'inv' })}`);
    await page.waitForSelector('.events .code-inner');
    // Eight inner rows (four calls and their results), each marked and indented below the code call's row.
    expect(await page.locator('.events li.code-inner').count()).toBe(8);
    expect(await page.locator('.events li.code-inner .event-summary').first().textContent()).toMatch(/^#0 /);

    await page.locator('.steps li[data-step] .step-button').first().click();
    await page.waitForSelector('.detail .block-code-call');
    expect(await page.locator('.detail .block-code-call pre.program').textContent()).toBe(CODE_PROGRAM);
    // The code call and the four calls its program made.
    expect(await page.locator('.detail p.muted').first().textContent()).toMatch(/ · 5 tool calls$/);
    const calls = page.locator('.detail .inner-call-list > li');
    expect(await calls.count()).toBe(4);
    expect(await calls.allTextContents()).toEqual([
      expect.stringMatching(/^#0 fetch_invoice\{"id":"INV-1"\} → \{"id":"INV-1","total":120,"note":"ok"\}$/),
      expect.stringMatching(/^#1 fetch_invoice\{"id":"INV-2"\} → .*"total":940/),
      '#2 flag_invoice{"id":"INV-2"} → {"flagged":"INV-2"}',
      expect.stringMatching(/^#3 fetch_invoice/),
    ]);
    // The inner calls are listed under the program, not repeated as events of their own.
    expect(await page.locator('.detail .event-body.code-inner').count()).toBe(0);
    // The markup in the program and in a tool's output stayed text.
    expect(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('.detail img').count()).toBe(0);
    if (process.env.STUDIO_SCREENSHOTS) await page.screenshot({ path: `${process.env.STUDIO_SCREENSHOTS}/code-step.png`, fullPage: true });

    // Each listed call opens its own event, which names the code call it belongs to.
    await page.getByRole('button', { name: 'Open call #2, flag_invoice' }).click();
    await page.waitForSelector('.detail .event-body.code-inner');
    expect(await page.locator('.detail .event-meta').textContent()).toMatch(/call #2 of code call \S+/);
    expect(await page.locator('.detail .block-tool-call .block-head').textContent()).toMatch(/^Tool call · flag_invoice/);
    // So does an inner row of the timeline.
    await page.locator('.events li.code-inner .event-row').first().click();
    await expect.poll(() => page?.locator('.detail .event-meta').textContent()).toMatch(/call #0 of code call \S+/);
  });
});
