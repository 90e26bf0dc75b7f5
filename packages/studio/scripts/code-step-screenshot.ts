import { InMemorySessionStore } from '@replan/core';
import type { Browser } from 'playwright-core';
import { invoiceRunner } from '../../../examples/code-step/invoices.js';
import { serveStudio } from '../src/index.js';

/**
 * Writes `studio-code-step.png` into `out`: the code-step example's session (one step checks 12
 * invoices with one program, its last call approved), the step selected: its program, the calls
 * it made nested under it, and the inner rows of the timeline. Offline, scripted models.
 */
export async function codeStepScreenshot(browser: Browser, out: string): Promise<void> {
  const store = new InMemorySessionStore();
  const runner = invoiceRunner(store);
  const session = { userId: 'ana', sessionId: 'march-invoices' };
  const first = await runner.run({ ...session, input: 'Check the March invoices.' }).result();
  const waiting = first.interrupts[0];
  if (!waiting) throw new Error(`the code step did not stop for its approval (${first.status})`);
  await runner.resume({ ...session, approvals: { [waiting.id]: true } }).result();
  const studio = await serveStudio({ store, runners: [runner] });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1050 }, deviceScaleFactor: 1 });
    await page.goto(`${studio.url}#/session?app=${runner.appName}&user=ana&id=march-invoices`);
    await page.waitForSelector('.events .code-inner');
    await page.locator('.steps li[data-step] .step-button').first().click();
    await page.waitForSelector('.detail .block-code-call');
    await page.screenshot({ path: `${out}studio-code-step.png` });
    await page.close();
  } finally {
    await studio.close();
  }
}
