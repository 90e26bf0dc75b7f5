import { InMemorySessionStore } from '@replan/core';
import type { Page } from 'playwright-core';
import { afterEach, expect, it } from 'vitest';
import { serveStudio, type StudioHandle } from '../src/index.js';
import { describeInBrowser } from './support/browser-suite.js';
import { compactionScenario } from './support/compaction-scenario.js';

let studio: StudioHandle | undefined;
let page: Page | undefined;
afterEach(async () => {
  await page?.close();
  await studio?.close();
  page = undefined;
  studio = undefined;
});

describeInBrowser('compactions in the timeline', (browser) => {
  it('a compaction row says what it summarised and what the summarizer used; its detail shows the summary', async () => {
    const store = new InMemorySessionStore();
    const runner = compactionScenario(store);
    expect((await runner.run({ userId: 'ana', sessionId: 'reports', input: 'Collect the readings.' }).result()).status).toBe('completed');
    const events = (await store.get({ appName: runner.appName, userId: 'ana', id: 'reports' }))?.events ?? [];
    const compactions = events.flatMap((e, i) => (e.actions?.compaction ? [{ index: i, record: e.actions.compaction }] : []));
    expect(compactions.length).toBeGreaterThan(1);

    studio = await serveStudio({ store, runners: [runner] });
    page = await browser().newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${studio.url}#/session?${new URLSearchParams({ app: runner.appName, user: 'ana', id: 'reports' })}`);
    await page.waitForSelector('.events .kind-compaction');
    const rows = page.locator('.events .event-row', { has: page.locator('.kind-compaction') });
    expect(await rows.count()).toBe(compactions.length);
    const first = compactions[0]!;
    const firstRow = rows.first();
    expect(await firstRow.getAttribute('data-index')).toBe(String(first.index));
    expect(await firstRow.locator('.event-summary').textContent()).toMatch(
      new RegExp(
        `^summarised \\d+ turns · context ~${first.record.tokensBefore.toLocaleString('en')} → ~${first.record.tokensAfter.toLocaleString('en')} tokens · summarizer 3,200 in / 60 out$`,
      ),
    );

    await firstRow.click();
    await page.waitForSelector('.detail .block-compaction');
    expect(await page.locator('.detail .block-compaction .block-head').textContent()).toMatch(
      /^Compaction · summarised \d+ turns · context ~/,
    );
    expect(await page.locator('.detail .block-compaction pre').textContent()).toBe(first.record.summary);
    expect(await page.locator('.detail .event-meta').textContent()).toContain('summarizer 3,200 in · 60 out');
  });
});
