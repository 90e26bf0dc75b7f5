import { InMemorySessionStore, type AgentEvent, type SessionKey } from '@replan/core';
import { SessionKeys } from '@replan/planexecute';
import type { Page } from 'playwright-core';
import { afterEach, expect, it } from 'vitest';
import { serveStudio, type StudioHandle, type StudioOptions } from '../src/index.js';
import { statusOf } from '../src/view/session-status.js';
import { describeInBrowser } from './support/browser-suite.js';
import { approvalScenario, graphScenario, HOSTILE, questionScenario } from './support/scenarios.js';

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

const stepStatus = (p: Page, step: string) => p.locator(`.plan-graph .node[data-step="${step}"]`).getAttribute('data-status');

async function waitForStoredStatus(store: InMemorySessionStore, key: SessionKey, status: string) {
  await expect.poll(async () => statusOf((await store.get(key))?.events ?? []).status, { timeout: 15_000 }).toBe(status);
}

describeInBrowser('acting from the page', (browser) => {
  const open = async (options: StudioOptions) => {
    studio = await serveStudio(options);
    page = await browser().newPage();
    await page.addInitScript(() => {
      delete (globalThis as unknown as { __pwned?: number }).__pwned;
    });
    return page;
  };

  it('starts a graph-mode run and shows each step’s status live while it runs', async () => {
    const store = new InMemorySessionStore();
    const scenario = graphScenario(store, 'graph-app', 120);
    const p = await open({ store, runners: { 'graph-app': scenario.runner }, users: ['ana'] });
    await p.goto(studio!.url);
    await p.getByLabel('Input').fill('Compare alpha and the hostile notes');
    await p.getByLabel('Session id').fill('live-1');
    await p.getByRole('button', { name: 'Start run' }).click();
    await p.waitForSelector('.plan-graph .node[data-step="c"]');
    // a and b finish while c waits for the test: the page shows it without a reload.
    await p.waitForSelector('.plan-graph .node[data-step="a"][data-status="done"]', { timeout: 15_000 });
    await p.waitForSelector('.plan-graph .node[data-step="b"][data-status="done"]', { timeout: 15_000 });
    expect(['pending', 'running']).toContain(await stepStatus(p, 'c'));
    expect(await p.locator('.session-facts .badge').textContent()).toBe('running');
    // the lease names the process running it (here: the studio's own runner)
    expect(await p.locator('[data-runner="held"]').textContent()).toMatch(/^Running in .+ \(lease until /);
    // the edges of the graph: c depends on a and b
    expect(await p.locator('.plan-graph .edge').count()).toBe(2);
    scenario.release();
    await p.waitForSelector('.plan-graph .node[data-step="c"][data-status="done"]', { timeout: 15_000 });
    await p.waitForSelector('.session-facts .badge[data-status="completed"]', { timeout: 15_000 });
    expect(await p.locator('.block-result pre').first().textContent()).toBe('All three steps are done.');
  });

  it('hostile tool output and input are shown as text and never run', async () => {
    const store = new InMemorySessionStore();
    const scenario = graphScenario(store, 'graph-app', 0);
    scenario.release();
    const key = { appName: 'graph-app', userId: 'ana', id: 'hostile' };
    await scenario.runner.run({ userId: key.userId, sessionId: key.id, input: `Look at ${HOSTILE}` }).result();
    const p = await open({ store, users: ['ana'] });
    const problems: string[] = [];
    p.on('pageerror', (error) => problems.push(error.message));
    p.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text()); // e.g. a Content-Security-Policy violation
    });
    await p.goto(sessionUrl(key));
    await p.getByRole('button', { name: /^Step b,/ }).click();
    await p.waitForSelector('.detail .block-tool-result');
    const shown = await p.locator('.detail .block-tool-result pre').textContent();
    expect(shown).toContain('<script>window.__pwned=2</script>');
    expect(shown).toContain('<img src=x onerror="window.__pwned=1">');
    expect(await p.locator('.timeline').textContent()).toContain('<img src=x');
    // nothing parsed as HTML: no image or script element came from the data, the flag was never set
    expect(await p.locator('#app img, #app script').count()).toBe(0);
    await p.getByRole('link', { name: '← Sessions' }).click();
    await p.waitForSelector('tr[data-session="hostile"]');
    expect(await p.locator('tr[data-session="hostile"] .preview').textContent()).toContain('<script>');
    expect(await p.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(problems).toEqual([]);
  });

  it('approving an interrupt in the page resumes the run to completion', async () => {
    const store = new InMemorySessionStore();
    const runner = approvalScenario(store, 'approval-app', 20);
    const key = { appName: 'approval-app', userId: 'ana', id: 'approve-me' };
    expect((await runner.run({ userId: key.userId, sessionId: key.id, input: 'Send the weekly report' }).result()).status).toBe(
      'interrupted',
    );
    const p = await open({ store, runners: [runner] });
    await p.goto(sessionUrl(key));
    await p.waitForSelector('.interrupt');
    expect(await p.locator('.interrupt .payload').textContent()).toContain('team@example.com');
    await p.getByRole('button', { name: 'Approve' }).click();
    await p.waitForSelector('.session-facts .badge[data-status="completed"]', { timeout: 15_000 });
    expect(await p.locator('.interrupt').count()).toBe(0);
    // The note beside the completed badge says what happened, not that the run is still going.
    const page = (await p.locator('body').textContent()) ?? '';
    expect(page).not.toContain('the run goes on');
    expect(page).toMatch(/Approved \S+:approval: the run resumed\./);
    await waitForStoredStatus(store, key, 'completed');
    const events = (await store.get(key))?.events ?? [];
    expect(JSON.stringify(events)).toContain('report sent to team@example.com');
  });

  it('rejecting an interrupt tells the model and the run still finishes', async () => {
    const store = new InMemorySessionStore();
    const runner = approvalScenario(store, 'approval-app', 0);
    const key = { appName: 'approval-app', userId: 'ana', id: 'reject-me' };
    await runner.run({ userId: key.userId, sessionId: key.id, input: 'Send the weekly report' }).result();
    const p = await open({ store, runners: [runner] });
    await p.goto(sessionUrl(key));
    await p.getByLabel('Reason (optional)').fill('not this week');
    await p.getByRole('button', { name: 'Reject' }).click();
    await waitForStoredStatus(store, key, 'completed');
    const events = JSON.stringify((await store.get(key))?.events ?? []);
    expect(events).toContain('not this week');
    expect(events).not.toContain('report sent to');
  });

  it('answering a tool’s question sends the value (JSON when it parses) and the run completes', async () => {
    const store = new InMemorySessionStore();
    const runner = questionScenario(store);
    const key = { appName: 'question-app', userId: 'ana', id: 'ask' };
    await runner.run({ userId: key.userId, sessionId: key.id, input: 'Plan the offsite' }).result();
    const p = await open({ store, runners: [runner] });
    await p.goto(sessionUrl(key));
    expect(await p.locator('.interrupt .payload').textContent()).toContain('What is the budget?');
    expect(await p.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    await p.getByLabel('Answer').fill('{"amount": 500}');
    await p.getByRole('button', { name: 'Send answer' }).click();
    await p.waitForSelector('.session-facts .badge[data-status="completed"]', { timeout: 15_000 });
    expect(JSON.stringify((await store.get(key))?.events)).toContain('budget is {\\"amount\\":500}');
  });

  it('is usable from the keyboard, and every button has a name', async () => {
    const store = new InMemorySessionStore();
    const scenario = graphScenario(store, 'graph-app', 0);
    scenario.release();
    const key = { appName: 'graph-app', userId: 'ana', id: 'keys' };
    await scenario.runner.run({ userId: key.userId, sessionId: key.id, input: 'Research it' }).result();
    const p = await open({ store, users: ['ana'] });
    await p.goto(sessionUrl(key));
    await p.locator('.plan-graph .node[data-step="c"]').focus();
    await p.keyboard.press('Enter');
    await p.waitForSelector('.detail h2:text("Step c")');
    await p.locator('.step-button').first().focus();
    await p.keyboard.press('Space');
    await p.waitForSelector('.detail h2:text("Step a")');
    const unnamed = await p.evaluate(() => {
      const doc = (
        globalThis as unknown as {
          document: {
            querySelectorAll(s: string): ArrayLike<{ textContent: string | null; getAttribute(n: string): string | null; id: string }>;
          };
        }
      ).document;
      const buttons = Array.from(doc.querySelectorAll('button')).filter(
        (b) => !(b.textContent ?? '').trim() && !b.getAttribute('aria-label'),
      );
      const inputs = Array.from(doc.querySelectorAll('input, select, textarea')).filter(
        (i) => !doc.querySelectorAll(`label[for="${i.id}"]`).length,
      );
      return buttons.length + inputs.length;
    });
    expect(unnamed).toBe(0);
  });

  it('fork from an event creates a new session that runs to completion', async () => {
    const store = new InMemorySessionStore();
    const scenario = graphScenario(store, 'graph-app', 0);
    scenario.release();
    const key = { appName: 'graph-app', userId: 'ana', id: 'original' };
    await scenario.runner.run({ userId: key.userId, sessionId: key.id, input: 'Research it' }).result();
    const original = await store.get(key);
    const planIndex = original!.events.findIndex((e) => e.meta?.planExecute === 'plan');
    const p = await open({ store, runners: [scenario.runner] });
    await p.goto(sessionUrl(key));
    await p.locator(`button[data-index="${planIndex}"]`).click();
    await p.getByRole('button', { name: `Fork a new session from event ${planIndex}` }).click();
    await p.waitForFunction(() => {
      const hash = (globalThis as unknown as { location: { hash: string } }).location.hash;
      return hash.includes('id=') && !hash.includes('id=original');
    });
    const forkedId = new URLSearchParams(new URL(p.url()).hash.split('?')[1]).get('id') as string;
    const forked = { ...key, id: forkedId };
    expect((await store.get(forked))?.events.length).toBe(planIndex + 1);
    await p.waitForSelector('.session-facts .badge[data-status="running"]');
    await p.getByRole('button', { name: 'Resume run' }).click();
    await p.waitForSelector('.session-facts .badge[data-status="completed"]', { timeout: 15_000 });
    await waitForStoredStatus(store, forked, 'completed');
    // the original is untouched
    expect((await store.get(key))?.version).toBe(original!.version);
  });

  it('time travel: the state at an event, by scope', async () => {
    const store = new InMemorySessionStore();
    const scenario = graphScenario(store, 'graph-app', 0);
    scenario.release();
    const key = { appName: 'graph-app', userId: 'ana', id: 'stateful' };
    await scenario.runner
      .run({ userId: key.userId, sessionId: key.id, input: 'Research it', state: { 'user:lang': 'fr', topic: 'alpha' } })
      .result();
    const events = (await store.get(key))!.events;
    const planIndex = events.findIndex((e) => e.meta?.planExecute === 'plan');
    const p = await open({ store, users: ['ana'] });
    await p.goto(sessionUrl(key));
    await p.locator(`button[data-index="${planIndex}"]`).click();
    await p.getByRole('button', { name: 'State at this event' }).click();
    await p.waitForSelector('.state-at dt');
    const [sessionScope, userScope, appScope] = await p.locator('.state-scope').allTextContents();
    expect(sessionScope).toContain(SessionKeys.Plan);
    expect(sessionScope).toContain('topic');
    // the state as it was then: no step had finished yet
    expect(sessionScope).not.toContain('Step done');
    expect(userScope).toContain('user:lang');
    expect(userScope).not.toContain('topic');
    expect(appScope).toContain('empty');
    // at the last event, the steps' results are there
    const last = events.length - 1;
    await p.locator(`button[data-index="${last}"]`).click();
    await p.getByRole('button', { name: 'State at this event' }).click();
    await p.waitForSelector(`.state-at h3:text("State after event #${last}")`);
    expect(await p.locator('.state-scope').first().textContent()).toContain('Step done');
    expect(await p.locator('.state-scope').first().textContent()).toContain(SessionKeys.ExecutedSteps);
    // read-only view: no fork button
    expect(await p.getByRole('button', { name: /Fork/ }).count()).toBe(0);
  });

  it('a 10,000-event session opens on one page of 100 events, and pages', async () => {
    const store = new InMemorySessionStore();
    const key = { appName: 'big', userId: 'ana', id: 'big' };
    const events: AgentEvent[] = Array.from({ length: 10_000 }, (_, i) => ({
      id: `e${i}`,
      invocationId: 'inv',
      author: i === 0 ? 'user' : 'worker',
      path: i === 0 ? 'user' : 'root/worker',
      timestamp: 1_700_000_000_000 + i,
      message: { role: i === 0 ? 'user' : 'assistant', content: [{ type: 'text', text: `event number ${i}` }] },
    }));
    await store.create(key, events);
    const p = await open({ store });
    await p.goto(sessionUrl(key));
    await p.waitForSelector('.events button[data-index="9999"]');
    expect(await p.locator('.events li').count()).toBe(100);
    expect(await p.locator('.timeline .page-number').textContent()).toContain('9901–10000 of 10000');
    await p.getByRole('button', { name: 'First events' }).click();
    await p.waitForSelector('.events button[data-index="0"]');
    expect(await p.locator('.events li').count()).toBe(100);
    await p.getByRole('button', { name: 'Later events' }).click();
    await p.waitForSelector('.events button[data-index="100"]');
    // filter by agent: the user's one event
    await p.getByLabel('Agent').selectOption('user');
    await p.waitForSelector('.timeline .page-number:text("1–1 of 1")');
  });

  it('with prices, the session facts show what the stored session cost', async () => {
    const store = new InMemorySessionStore();
    const scenario = graphScenario(store, 'graph-app', 0);
    scenario.release();
    const result = await scenario.runner.run({ userId: 'ana', sessionId: 'priced', input: 'go' }).result();
    expect(result.status).toBe('completed');
    // the scripted model reports 10 in / 5 out per call: 1 per token makes the cost 15 per call
    const prices = { 'graph-script': { inputPerMillion: 1e6, outputPerMillion: 1e6 } };
    const p = await open({ store, users: ['ana'], prices });
    await p.goto(sessionUrl({ appName: 'graph-app', userId: 'ana', id: 'priced' }));
    await p.waitForSelector('.session-facts .badge[data-status="completed"]');
    const facts = await p.locator('.session-facts').textContent();
    expect(facts).toContain(`cost ${(15 * result.session.modelCalls).toPrecision(3)}`);
    expect(facts).not.toContain('unpriced');
  });
});
