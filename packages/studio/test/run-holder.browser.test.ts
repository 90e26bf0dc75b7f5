import { InMemorySessionStore, type SessionKey } from '@replan/core';
import type { Page } from 'playwright-core';
import { afterEach, expect, it } from 'vitest';
import { serveStudio, type StudioHandle } from '../src/index.js';
import { describeInBrowser } from './support/browser-suite.js';
import { graphScenario } from './support/scenarios.js';

let studio: StudioHandle | undefined;
let page: Page | undefined;
afterEach(async () => {
  await page?.close();
  await studio?.close();
  page = undefined;
  studio = undefined;
});

const sessionUrl = (key: SessionKey) =>
  `${studio!.url}#/session?${new URLSearchParams({ app: key.appName, user: key.userId, id: key.id })}`;

// The page says who runs an unfinished session (its lease holder); a live run's holder is checked in run-flows.
describeInBrowser('who runs a session', (browser) => {
  it('a run whose process died shows that nobody runs it, and Resume finishes it', async () => {
    const store = new InMemorySessionStore();
    const scenario = graphScenario(store, 'graph-app', 0);
    scenario.release();
    // What a crash leaves: the input stored, no end, and no live lease (the process that held it is gone).
    const key = { appName: 'graph-app', userId: 'ana', id: 'crashed' };
    await store.create(key, [
      {
        id: 'in-1',
        invocationId: 'inv-1',
        author: 'user',
        path: 'user',
        timestamp: Date.now(),
        message: { role: 'user', content: [{ type: 'text', text: 'Compare alpha and beta' }] },
      },
    ]);
    studio = await serveStudio({ store, runners: { 'graph-app': scenario.runner }, users: ['ana'] });
    page = await browser().newPage();
    const p = page;
    await p.goto(sessionUrl(key));
    await p.waitForSelector('.session-facts .badge[data-status="running"]');
    const warning = p.locator('[data-runner="none"]');
    expect(await warning.textContent()).toContain('No process is running this run');
    if (process.env.STUDIO_SCREENSHOTS) await p.screenshot({ path: `${process.env.STUDIO_SCREENSHOTS}/crashed-run.png` });
    await p.getByRole('button', { name: 'Resume run' }).click();
    await p.waitForSelector('.session-facts .badge[data-status="completed"]', { timeout: 15_000 });
    expect(await p.locator('[data-runner]').count()).toBe(0);
  });
});
