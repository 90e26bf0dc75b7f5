import { eventKind, InMemorySessionStore } from '@replan/core';
import type { Page } from 'playwright-core';
import { afterEach, expect, it } from 'vitest';
import { serveStudio, type StudioHandle } from '../src/index.js';
import { describeInBrowser } from './support/browser-suite.js';
import { approvalScenario, HIDDEN_TEXT, hiddenTextScenario, revisingScenario } from './support/scenarios.js';

let studio: StudioHandle | undefined;
let page: Page | undefined;
afterEach(async () => {
  await page?.close();
  await studio?.close();
  page = undefined;
  studio = undefined;
});

const sessionHash = (app: string, user: string, id: string) => `#/session?${new URLSearchParams({ app, user, id })}`;

/** The plan version shown: its label, and each step as `key label`. */
async function shownVersion(p: Page): Promise<{ label: string; steps: string[] }> {
  const label = (await p.locator('.rev-label').textContent()) ?? '';
  const steps = await p
    .locator('.plan .step')
    .evaluateAll((els) =>
      els.map(
        (el) => `${el.getAttribute('data-step')} ${el.querySelector('.step-label')?.textContent ?? ''} ${el.getAttribute('data-status')}`,
      ),
    );
  return { label: label.replace(/ · .*/, ''), steps };
}

describeInBrowser('reading a session', (browser) => {
  it('hides the runner’s cursor events until asked, and counts them', async () => {
    const store = new InMemorySessionStore();
    await revisingScenario(store, 'rev').run({ userId: 'ana', sessionId: 's1', input: 'go' }).result();
    const events = (await store.get({ appName: 'rev', userId: 'ana', id: 's1' }))!.events;
    const cursors = events.filter((e) => eventKind(e).kind === 'cursor').length;
    expect(cursors).toBeGreaterThan(0);
    studio = await serveStudio({ store, apps: ['rev'], users: ['ana'] });
    page = await browser().newPage();
    await page.goto(`${studio.url}${sessionHash('rev', 'ana', 's1')}`);
    await page.waitForSelector('.events .event-row');
    const toggle = page.getByLabel(`Show the runner’s cursor events (${cursors})`);
    expect(await toggle.isChecked()).toBe(false);
    expect(await page.locator('.events .event-row').count()).toBe(events.length - cursors);
    expect(await page.locator('.events .kind-cursor').count()).toBe(0);
    expect(await page.locator('.timeline .page-number').textContent()).toBe(
      `1–${events.length - cursors} of ${events.length - cursors} · live`,
    );
    await toggle.check();
    await page.waitForSelector('.events .kind-cursor');
    expect(await page.locator('.events .event-row').count()).toBe(events.length);
    expect(await page.locator('.events .kind-cursor').count()).toBe(cursors);
    // each row keeps its event's index: the detail of a cursor event is that event
    const firstCursor = events.findIndex((e) => eventKind(e).kind === 'cursor');
    expect(await page.locator('.events .event-row').nth(firstCursor).getAttribute('data-index')).toBe(String(firstCursor));
    await toggle.uncheck();
    await expect.poll(() => page!.locator('.events .kind-cursor').count()).toBe(0);
  });

  it('keeps a linear step’s key across plan versions, before and after it runs', async () => {
    const store = new InMemorySessionStore();
    await revisingScenario(store, 'rev').run({ userId: 'ana', sessionId: 's2', input: 'go' }).result();
    studio = await serveStudio({ store, apps: ['rev'], users: ['ana'] });
    page = await browser().newPage();
    await page.goto(`${studio.url}${sessionHash('rev', 'ana', 's2')}`);
    await page.waitForSelector('.plan .step[data-step="n4"][data-status="done"]');
    const versions = [await shownVersion(page)];
    for (let i = 0; i < 3; i++) {
      await page.getByRole('button', { name: 'Previous plan version' }).click();
      versions.unshift(await shownVersion(page));
    }
    expect(versions).toEqual([
      { label: 'Version 1 of 4', steps: ['n1 Step A done', 'n2 Step B pending', 'v1.3 Step C pending'] },
      { label: 'Version 2 of 4', steps: ['n1 Step A done', 'n2 Step B done', 'v1.3 Step C pending'] },
      { label: 'Version 3 of 4', steps: ['n1 Step A done', 'n2 Step B done', 'n3 Step D done', 'n4 Step E pending'] },
      { label: 'Version 4 of 4', steps: ['n1 Step A done', 'n2 Step B done', 'n3 Step D done', 'n4 Step E done'] },
    ]);
    // In version 1, step E waits as n4: its detail is the step as it ran.
    await page.getByRole('button', { name: 'Next plan version' }).click();
    await page.getByRole('button', { name: 'Next plan version' }).click();
    await page.getByRole('button', { name: /^Step n4, pending/ }).click();
    await page.waitForSelector('.detail .block-result');
    expect(await page.locator('.detail h2').textContent()).toBe('Step n4');
    expect(await page.locator('.detail .block-result pre').textContent()).toBe('finished Step E');
    // A dropped step opens too (it never ran: no events)
    await page.getByRole('button', { name: 'Previous plan version' }).click();
    await page.getByRole('button', { name: /^Step v1\.3,/ }).click();
    await page.waitForSelector('.detail h2:text("Step v1.3")');
    expect(await page.locator('.detail .step-title').textContent()).toBe('pending Step C');
    expect(await page.locator('.detail .muted').first().textContent()).toMatch(/^0 events · /);
  });

  it('says 1 model call, not 1 model calls', async () => {
    const store = new InMemorySessionStore();
    await approvalScenario(store, 'shop').run({ userId: 'ana', sessionId: 'one', input: 'Send the report' }).result();
    studio = await serveStudio({ store, apps: ['shop'], users: ['ana'] });
    page = await browser().newPage();
    await page.goto(`${studio.url}${sessionHash('shop', 'ana', 'one')}`);
    await page.waitForSelector('.plan .step[data-step="n1"]');
    expect(await page.locator('.plan .step[data-step="n1"] .deps').textContent()).toBe('1 model call · 10 in · 5 out');
  });

  it('shows bidi overrides and invisible characters as visible codes in every text', async () => {
    const store = new InMemorySessionStore();
    const id = 'report\u202E1';
    await hiddenTextScenario(store, 'files')
      .run({ userId: 'ana', sessionId: id, input: `Rename ${HIDDEN_TEXT}` })
      .result();
    studio = await serveStudio({ store, apps: ['files'], users: ['ana'] });
    page = await browser().newPage();
    const noHiddenCharacterShows = async () => {
      expect(await page!.locator('body').textContent()).not.toMatch(/[\u202E\u200B]/);
      // Attributes people read (tooltips, accessible names) carry codes too; only ids and values keep the character.
      const attributes = await page!
        .locator('*')
        .evaluateAll((els) =>
          els.flatMap((el) => el.getAttributeNames().filter((name: string) => /[\u202E\u200B]/.test(el.getAttribute(name) ?? ''))),
        );
      expect(attributes.filter((name) => !name.startsWith('data-') && name !== 'value')).toEqual([]);
    };

    await page.goto(`${studio.url}#/?app=files&user=ana`);
    await page.waitForSelector('tbody tr');
    expect(await page.locator('tbody tr td.preview').textContent()).toBe('Rename invoice⟨U+202E⟩fdp.exe');
    expect(await page.locator('tbody tr td.preview .hidden-char').getAttribute('title')).toMatch(/^U\+202E right-to-left override/);
    expect(await page.locator('tbody tr a').textContent()).toBe('report⟨U+202E⟩1');
    await noHiddenCharacterShows();

    await page.locator('tbody tr a').click();
    await page.waitForSelector('.plan .step[data-step="n1"]');
    expect(await page.locator('.session-head h1').textContent()).toBe('Session report⟨U+202E⟩1');
    expect(await page.locator('.session-head .block-result pre').textContent()).toBe('Renamed to invoice⟨U+202E⟩fdp.exe.');
    expect(await page.locator('.plan .step-label').textContent()).toBe('Rename the file to invoice⟨U+202E⟩fdp.exe');
    expect(await page.locator('.events .event-summary .hidden-char').count()).toBeGreaterThan(2);
    await page.getByRole('button', { name: /^Step n1,/ }).click();
    await page.waitForSelector('.detail .block-tool-result');
    expect(await page.locator('.detail .block-tool-result pre').textContent()).toBe('renamed to invoice⟨U+202E⟩fdp.exe for pay⟨U+200B⟩pal');
    expect(await page.locator('.detail .block-tool-result pre .hidden-char').count()).toBe(2);
    // in a distinct style
    const style = await page
      .locator('.detail .block-tool-result pre .hidden-char')
      .first()
      .evaluate(
        (el) =>
          (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(el).backgroundColor,
      );
    expect(style).not.toBe('rgba(0, 0, 0, 0)');
    await noHiddenCharacterShows();
  });
});
