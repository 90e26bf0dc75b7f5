import { InMemorySessionStore, type SessionKey } from '@replan/core';
import { childSessionId } from '@replan/core/agent-kit';
import type { Page } from 'playwright-core';
import { afterEach, expect, it } from 'vitest';
import { serveStudio, type StudioHandle } from '../src/index.js';
import { statusOf } from '../src/view/session-status.js';
import { describeInBrowser } from './support/browser-suite.js';
import { nestedApprovalScenario } from './support/scenarios.js';

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

describeInBrowser('a child session in the page', (browser) => {
  it('Approve on a child session’s interrupt answers the root session’s nested id, as the page says; the tool runs once', async () => {
    const store = new InMemorySessionStore();
    const { runner, published } = nestedApprovalScenario(store, 'nested-app');
    const first = await runner.run({ userId: 'ana', sessionId: 's', input: 'Write about tides' }).result();
    expect(first.status).toBe('interrupted');
    const child: SessionKey = { appName: 'nested-app', userId: 'ana', id: childSessionId('s', first.invocationId, 'o1') };
    studio = await serveStudio({ store, runners: [runner] });
    page = await browser().newPage();
    await page.goto(sessionUrl(child));
    await page.waitForSelector('.interrupt');
    // The page says where the answer goes, and links the parent.
    const note = page.locator('.interrupt [data-answer-in="s"]');
    expect(await note.textContent()).toContain('o1/a1:approval');
    expect(await page.locator('[data-child-of="s"]').textContent()).toContain('call o1');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForSelector('.session-facts .badge[data-status="completed"]', { timeout: 15_000 });
    expect(await page.locator('.interrupt').count()).toBe(0);
    await expect
      .poll(async () => statusOf((await store.get({ ...child, id: 's' }))?.events ?? []).status, { timeout: 15_000 })
      .toBe('completed');
    expect(published).toEqual(['Tides']);
    // No grandchild was made: the root ran its own call once.
    expect((await store.list({ appName: 'nested-app', userId: 'ana' })).sessions).toHaveLength(2);
  });
});
