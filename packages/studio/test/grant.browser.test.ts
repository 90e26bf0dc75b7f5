import { InMemorySessionStore, Runner, tool } from '@replan/core';
import { callTools, reply, ScriptedModel } from '@replan/core/testing';
import { createPlanExecuteAgent } from '@replan/planexecute';
import type { Page } from 'playwright-core';
import { afterEach, expect, it } from 'vitest';
import { z } from 'zod';
import { serveStudio, type StudioHandle } from '../src/index.js';
import { describeInBrowser } from './support/browser-suite.js';

let studio: StudioHandle | undefined;
let page: Page | undefined;
afterEach(async () => {
  await page?.close();
  await studio?.close();
  page = undefined;
  studio = undefined;
});

/** A plan–execute run whose approved plan granted a `pay` call (`review.grants`). */
async function grantedRun(store: InMemorySessionStore) {
  const pay = tool({
    name: 'pay',
    description: 'Pays',
    parameters: z.object({ to: z.string() }),
    needsApproval: true,
    execute: ({ to }) => `paid ${to}`,
  });
  const agent = createPlanExecuteAgent({
    plannerModel: new ScriptedModel({ responses: [callTools({ name: 'plan', args: { steps: [{ task: 'pay ann', tools: ['pay'] }] } })] }),
    executorModel: new ScriptedModel({ responses: [callTools({ name: 'pay', args: { to: 'ann' }, id: 'p1' }), reply('paid')] }),
    replannerModel: new ScriptedModel({ responses: [callTools({ name: 'respond', args: { response: 'done' } })] }),
    tools: [pay],
    review: { plan: true, grants: true },
  });
  const runner = new Runner({ agent, appName: 'grants', sessionStore: store });
  const stopped = await runner.run({ userId: 'ana', sessionId: 'pay', input: 'Pay Ann.' }).result();
  const review = stopped.interrupts[0]?.id as string;
  const done = await runner.resume({ userId: 'ana', sessionId: 'pay', values: { [review]: { approve: true } } }).result();
  expect(done.status).toBe('completed');
  return { runner, review };
}

describeInBrowser('granted tool calls in the timeline', (browser) => {
  it('the row and the detail of a granted call name the plan review that approved it', async () => {
    const store = new InMemorySessionStore();
    const { runner, review } = await grantedRun(store);
    studio = await serveStudio({ store, runners: [runner] });
    page = await browser().newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${studio.url}#/session?${new URLSearchParams({ app: 'grants', user: 'ana', id: 'pay' })}`);
    const row = page.locator('.events .event-row', { hasText: 'granted by plan review' });
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    expect(await row.locator('.event-summary').textContent()).toBe(`granted by plan review ${review} · pay → paid ann`);
    await row.click();
    await page.waitForSelector('.detail .block-grant');
    expect(await page.locator('.detail .block-grant').textContent()).toBe(`Approved with the plan · review ${review}`);
  });
});
