import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebChat, type WebChat } from '../../../examples/web-chat/server.js';
import { APP } from '../../../examples/web-chat/trip-agent.js';
import { chromiumOrSkip, launchChromium } from './support/chromium.js';

const SCREENSHOT = fileURLToPath(new URL('../../../docs/images/web-chat.png', import.meta.url));

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
    await expect.poll(() => page.getByTestId('plan').locator('li').count()).toBe(2);
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
    expect(await page.getByTestId('plan').locator('li').allTextContents()).toEqual(['book the best flight']);

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
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
  });
});
