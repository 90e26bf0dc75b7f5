/**
 * `pnpm studio:screenshots`: renders the studio's main views into docs/images/ (sessions list,
 * a graph-mode session with a step's detail, an interrupt waiting for approval), with the
 * system chromium. Offline: scripted models, an in-memory store.
 */
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { InMemorySessionStore } from '@replan/core';
import { serveStudio } from '../src/index.js';
import { launchChromium } from '../test/support/browser.js';
import { approvalScenario, graphScenario } from '../test/support/scenarios.js';

const out = fileURLToPath(new URL('../../../docs/images/', import.meta.url));

async function main(): Promise<void> {
  await mkdir(out, { recursive: true });
  const store = new InMemorySessionStore();
  const graph = graphScenario(store, 'research', 40);
  graph.release();
  const approval = approvalScenario(store, 'research');
  await graph.runner
    .run({ userId: 'ana', sessionId: 'graph-run', input: 'Compare the alpha and the hostile notes, then combine them.' })
    .result();
  await approval.run({ userId: 'ana', sessionId: 'weekly-report', input: 'Send the weekly report to the team.' }).result();
  for (let i = 1; i <= 3; i++)
    await graph.runner.run({ userId: 'ana', sessionId: `earlier-run-${i}`, input: `Earlier question number ${i}` }).result();
  // One runner per app: the approval runner acts for the app (the graph runs are finished).
  const studio = await serveStudio({ store, runners: [approval], users: ['ana'] });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, deviceScaleFactor: 1 });
    await page.goto(`${studio.url}#/?app=research&user=ana`);
    await page.waitForSelector('tr[data-session="graph-run"]');
    await page.screenshot({ path: `${out}studio-sessions.png` });
    await page.getByRole('link', { name: 'graph-run' }).click();
    await page.waitForSelector('.plan-graph .node[data-step="c"]');
    await page.getByRole('button', { name: /^Step b,/ }).click();
    await page.waitForSelector('.detail .block-tool-result');
    await page.screenshot({ path: `${out}studio-graph-session.png`, fullPage: true });
    await page.goto(`${studio.url}#/session?app=research&user=ana&id=weekly-report`);
    await page.waitForSelector('.interrupt');
    await page.screenshot({ path: `${out}studio-interrupt.png` });
    console.log(`screenshots written to ${out}`);
  } finally {
    await browser.close();
    await studio.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
