/**
 * `pnpm studio:screenshots`: renders the studio's views into docs/images/ with the system chromium.
 * The first page, a session and the waiting approval are what `pnpm studio` shows (the demo's
 * sessions in a file store, its runners); the graph-mode picture is the tests' graph scenario
 * (the demo has no graph-mode run). Offline: scripted models, a temporary directory.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileSessionStore, InMemorySessionStore } from '@replan/core';
import { approvalRunner } from '../../../examples/demo/approval-app.js';
import { demoRunner } from '../../../examples/demo/runners.js';
import { scriptedBrain } from '../../../examples/demo/scripted-brain.js';
import { seedDemo } from '../../../examples/demo/seed-demo.js';
import { serveStudio } from '../src/index.js';
import { launchChromium } from '../test/support/browser.js';
import { budgetScreenshots } from './budget-screenshots.js';
import { codeStepScreenshot } from './code-step-screenshot.js';
import { compactionScreenshot } from './compaction-screenshot.js';
import { mediaScreenshots } from './media-screenshots.js';
import { memoryScreenshot } from './memory-screenshot.js';
import { planReviewScreenshots } from './plan-review-screenshots.js';
import { graphScenario } from '../test/support/scenarios.js';

const out = fileURLToPath(new URL('../../../docs/images/', import.meta.url));

async function main(): Promise<void> {
  await mkdir(out, { recursive: true });
  const dir = await mkdtemp(join(tmpdir(), 'replan-studio-screenshots-'));
  const store = new FileSessionStore({ dir });
  // As `pnpm studio`: the demo's sessions, then the studio with the demo's runners (the scripted model, whatever the environment says).
  await seedDemo(store, undefined, scriptedBrain());
  const demo = await serveStudio({ store, runners: [demoRunner(store, scriptedBrain()), approvalRunner(store)] });
  const graphStore = new InMemorySessionStore();
  const graph = graphScenario(graphStore, 'research', 40);
  graph.release();
  await graph.runner
    .run({ userId: 'ana', sessionId: 'graph-run', input: 'Compare the alpha and the hostile notes, then combine them.' })
    .result();
  const graphStudio = await serveStudio({ store: graphStore, apps: ['research'], users: ['ana'] });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, deviceScaleFactor: 1 });
    await page.goto(demo.url);
    await page.waitForSelector('.open-interrupts[data-ready] .open-interrupt');
    await page.waitForSelector('tbody tr');
    await page.screenshot({ path: `${out}studio-sessions.png` });
    await page.locator('tbody tr a').first().click();
    await page.waitForSelector('.plan .step[data-step="n4"]');
    await page.getByRole('button', { name: /^Step n4,/ }).click();
    await page.waitForSelector('.detail .block-tool-result');
    await page.screenshot({ path: `${out}studio-session.png`, fullPage: true });
    await page.goto(demo.url.replace(/\?token=.*/, ''));
    await page.waitForSelector('.open-interrupts[data-ready] .open-interrupt');
    await page.locator('.open-interrupt a').first().click();
    await page.waitForSelector('.interrupt');
    await page.screenshot({ path: `${out}studio-interrupt.png` });
    await page.goto(`${graphStudio.url}#/session?app=research&user=ana&id=graph-run`);
    await page.waitForSelector('.plan-graph .node[data-step="c"]');
    await page.getByRole('button', { name: /^Step b,/ }).click();
    await page.waitForSelector('.detail .block-tool-result');
    await page.screenshot({ path: `${out}studio-graph-session.png`, fullPage: true });
    await planReviewScreenshots(browser, out);
    await compactionScreenshot(browser, out);
    await memoryScreenshot(browser, out);
    await codeStepScreenshot(browser, out);
    await mediaScreenshots(browser, out);
    await budgetScreenshots(browser, out);
    console.log(`screenshots written to ${out}`);
  } finally {
    await browser.close();
    await demo.close();
    await graphStudio.close();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
