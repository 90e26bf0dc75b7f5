import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSessionStore } from '@replan/core';
import { expect, it } from 'vitest';
import { serveStudio } from '../src/index.js';
import { describeInBrowser } from './support/browser-suite.js';
import { approvalScenario, graphScenario, questionScenario } from './support/scenarios.js';

describeInBrowser('the first page: what waits for a person, and which runners are scripted', (browser) => {
  it('lists the open interrupts of every app and user, each linking to its session; an answered one leaves the list', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'studio-first-page-'));
    const store = new FileSessionStore({ dir });
    // The page opens on the first app (alpha) and its user; the questions wait in two other apps, for other users.
    const graph = graphScenario(store, 'alpha', 0);
    graph.release();
    await graph.runner.run({ userId: 'ana', sessionId: 'research', input: 'Research it' }).result();
    const approvals = approvalScenario(store, 'beta');
    await approvals.run({ userId: 'bo', sessionId: 'weekly-report', input: 'Send the report' }).result();
    await questionScenario(store, 'gamma').run({ userId: 'cy', sessionId: 'budget', input: 'Plan the offsite' }).result();
    const studio = await serveStudio({ store, runners: [approvals] });
    const page = await browser().newPage();
    try {
      await page.goto(studio.url);
      await page.waitForSelector('.open-interrupts[data-ready]');
      expect(await page.getByLabel('App').inputValue()).toBe('alpha');
      const items = page.locator('.open-interrupt');
      expect(await items.count()).toBe(2);
      // newest first, each saying where it waits
      expect(await items.nth(0).getAttribute('data-session')).toBe('budget');
      expect(await items.nth(0).textContent()).toMatch(/^question · ask_budget in app gamma for user cy · session budget · /);
      expect(await items.nth(1).textContent()).toMatch(/^approval · send_report in app beta for user bo · session weekly-report/);
      expect(await items.nth(1).locator('.open-interrupt-summary').textContent()).toBe('send_report({"to":"team@example.com"})');
      // The runner of beta answers from a script: the page says so, in the header and beside the list.
      expect(await page.locator('#mode').textContent()).toBe('runners: beta (scripted, offline) · file store');
      expect(await page.locator('.runners-note [data-runner-app="beta"]').textContent()).toBe(
        'betascripted, offline · model approval-script',
      );

      await items.nth(1).getByRole('link').click();
      await page.waitForSelector('body[data-ready="session"] .interrupt');
      expect(new URL(page.url()).hash).toBe('#/session?app=beta&user=bo&id=weekly-report');
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.waitForSelector('.session-facts .badge[data-status="completed"]', { timeout: 15_000 });

      await page.getByRole('link', { name: '← Sessions' }).click();
      await page.waitForSelector('body[data-ready="sessions"] .open-interrupts[data-ready]');
      expect(await page.locator('.open-interrupt').count()).toBe(1);
      expect(await page.locator('.open-interrupt').getAttribute('data-session')).toBe('budget');
    } finally {
      await page.close();
      await studio.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('says when nothing waits, then shows a question asked meanwhile; a read-only studio names no runners', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'studio-first-page-'));
    const store = new FileSessionStore({ dir });
    const graph = graphScenario(store, 'alpha', 0);
    graph.release();
    await graph.runner.run({ userId: 'ana', sessionId: 'research', input: 'Research it' }).result();
    const studio = await serveStudio({ store });
    const page = await browser().newPage();
    try {
      await page.goto(studio.url);
      await page.waitForSelector('.open-interrupts[data-ready]');
      expect(await page.locator('.open-interrupts .empty').textContent()).toBe('Nothing waits for a person.');
      expect(await page.locator('.runners-note').count()).toBe(0);
      expect(await page.locator('#mode').textContent()).toBe('read-only · file store');
      // A run elsewhere (another process on the same directory) asks: the first page shows it without a reload.
      await approvalScenario(new FileSessionStore({ dir }), 'beta').run({ userId: 'bo', sessionId: 'later', input: 'Send' }).result();
      await page.waitForSelector('.open-interrupt[data-session="later"]', { timeout: 20_000 });
    } finally {
      await page.close();
      await studio.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
