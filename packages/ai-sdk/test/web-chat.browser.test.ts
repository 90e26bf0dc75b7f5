import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebChat, type WebChat } from '../../../examples/web-chat/server.js';
import { APP } from '../../../examples/web-chat/trip-agent.js';
import { chromiumOrSkip, launchChromium } from './support/chromium.js';

const screenshot = (name: string) => fileURLToPath(new URL(`../../../docs/images/${name}.png`, import.meta.url));
const SCREENSHOT = screenshot('web-chat');

describe.runIf(chromiumOrSkip())('examples/web-chat in chromium', () => {
  let browser: Browser;
  let app: WebChat;
  beforeAll(async () => {
    // The search takes long enough for a reload in the middle of it.
    [browser, app] = await Promise.all([launchChromium(), startWebChat({ searchMs: 4000 })]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('streams the plan, the steps and the answer, survives a reload mid-run, and approves a tool', async () => {
    const page = await browser.newPage({ viewport: { width: 900, height: 480 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${app.url}/?chat=trip-1`);
    await page.getByRole('button', { name: 'Send' }).click();

    // The plan and the first step arrive while the search runs.
    // Playwright's waits (30 s), not expect.poll's 1 s: under a loaded machine (pnpm test runs files side by side) a step can take longer.
    await page.getByTestId('plan').locator('li').nth(1).waitFor();
    expect(await page.getByTestId('plan').locator('li').count()).toBe(2);
    await page.locator('[data-testid="step"][data-status="running"]').first().waitFor();
    await page.locator('[data-tool="search_flights"][data-state="input-available"]').waitFor();
    const messageId = await page.getByTestId('assistant').getAttribute('data-message-id');

    // Reload while the run is still searching: nothing after the search call is stored yet.
    const key = { appName: APP, userId: 'demo-user', id: 'trip-1' };
    const toolResults = async () => (await app.store.get(key))?.events.filter((e) => e.message?.role === 'tool').length;
    expect(await toolResults()).toBe(0);
    await page.reload();
    expect(await toolResults()).toBe(0);

    // The reloaded page replays the run from the log and follows it live to the approval request.
    await page.locator('[data-tool="search_flights"][data-state="output-available"]').waitFor();
    await page.getByTestId('approve').waitFor();
    expect(await page.getByTestId('assistant').count()).toBe(1);
    expect(await page.getByTestId('assistant').getAttribute('data-message-id')).toBe(messageId);
    // The whole plan stays in view: the step done, then the revision's step still to run.
    expect(await page.getByTestId('plan').locator('li').allTextContents()).toEqual(['find flights to Lisbon', 'book the best flight']);
    // Each result is shown once, on its step's line, in words (no raw AI SDK states).
    const text = (await page.getByTestId('assistant').textContent()) ?? '';
    expect(text.split('TP1351 leaves at 09:05 for 89 EUR.').length - 1).toBe(1);
    expect(await page.locator('[data-tool="book_flight"]').textContent()).toContain('waiting for your approval');
    await page.screenshot({ path: screenshot('web-chat-reload'), fullPage: true });

    await page.getByTestId('approve').click();
    await page.getByTestId('answer').waitFor();
    expect(await page.getByTestId('answer').textContent()).toBe('Your flight TP1351 to Lisbon on Friday at 09:05 is booked (seat 14C).');
    expect(await page.locator('[data-testid="step"]').evaluateAll((steps) => steps.map((s) => s.getAttribute('data-status')))).toEqual([
      'done',
      'done',
    ]);
    expect(await page.locator('[data-tool="book_flight"]').getAttribute('data-state')).toBe('output-available');
    expect(await page.getByTestId('assistant').count()).toBe(1);
    expect(errors).toEqual([]);
    await page.locator('body[data-status="ready"]').waitFor();
    expect(await page.locator('[data-tool="book_flight"]').textContent()).toContain(
      'done: {"flight":"TP1351","seat":"14C","status":"confirmed"}',
    );
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
  });

  it('a denied booking reads as not booked; a second message in the same chat plans again and books once approved', async () => {
    const page = await browser.newPage({ viewport: { width: 900, height: 480 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${app.url}/?chat=trip-deny`);
    await page.getByRole('button', { name: 'Send' }).click();
    expect(await page.locator('#input').inputValue()).toBe('');
    await page.getByTestId('deny').click();
    await page.getByTestId('answer').waitFor();
    expect(await page.getByTestId('answer').textContent()).toBe(
      'I did not book TP1351: the booking was not approved, so nothing was booked. Ask again to book it.',
    );
    expect(await page.locator('[data-tool="book_flight"]').getAttribute('data-state')).toBe('output-denied');
    expect(await page.locator('[data-tool="book_flight"]').textContent()).toContain('not approved');
    expect(await page.locator('[data-testid="step"]').nth(1).textContent()).toMatch(/Not booked: /);
    expect(await page.getByTestId('plan').locator('li').allTextContents()).toEqual(['find flights to Lisbon', 'book the best flight']);
    await page.locator('body[data-status="ready"]').waitFor();
    await page.screenshot({ path: screenshot('web-chat-deny'), fullPage: true });
    const key = { appName: APP, userId: 'demo-user', id: 'trip-deny' };
    const booked = async () =>
      (await app.store.get(key))?.events
        .flatMap((e) => (e.message?.role === 'tool' ? e.message.content : []))
        .filter((b) => b.type === 'tool_result' && b.name === 'book_flight' && !b.isError).length;
    expect(await booked()).toBe(0);

    // A second message in the same chat: a new run, the whole plan again, one booking once approved.
    await page.locator('#input').fill('Book it after all');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByTestId('assistant').nth(1).waitFor();
    expect(await page.getByTestId('assistant').count()).toBe(2);
    await page.getByTestId('approve').click();
    await page.getByTestId('answer').nth(1).waitFor();
    expect(await page.getByTestId('answer').count()).toBe(2);
    expect(await page.getByTestId('answer').nth(1).textContent()).toBe(
      'Your flight TP1351 to Lisbon on Friday at 09:05 is booked (seat 14C).',
    );
    expect(await booked()).toBe(1);
    expect(errors).toEqual([]);
  });
});
