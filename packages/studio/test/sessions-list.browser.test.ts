import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSessionStore, InMemorySessionStore, type SessionStore } from '@replan/core';
import { PostgresSessionStore } from '@replan/postgres';
import { expect, it } from 'vitest';
import { useTestPostgres } from '../../postgres/test/support/use-test-postgres.js';
import { serveStudio, type StudioOptions } from '../src/index.js';
import { describeInBrowser } from './support/browser-suite.js';
import { approvalScenario, graphScenario } from './support/scenarios.js';

/** Two sessions in the store: one interrupted (approval), one completed (graph). */
async function seed(store: SessionStore): Promise<void> {
  await approvalScenario(store, 'shop', 0).run({ userId: 'ana', sessionId: 'needs-approval', input: 'Send the report' }).result();
  const graph = graphScenario(store, 'shop', 0);
  graph.release();
  await graph.runner.run({ userId: 'ana', sessionId: 'graph-done', input: 'Research it' }).result();
}

const pg = useTestPostgres();

describeInBrowser('the sessions list shows what each store holds', (browser) => {
  const check = async (store: SessionStore, options: Partial<StudioOptions>) => {
    await seed(store);
    const studio = await serveStudio({ store, ...options });
    const page = await browser().newPage();
    try {
      await page.goto(studio.url);
      await page.waitForSelector('body[data-ready="sessions"]');
      // The token left the address bar and the page kept it for its API calls.
      expect(new URL(page.url()).searchParams.get('token')).toBeNull();
      expect(await page.getByLabel('App').inputValue()).toBe('shop');
      expect(await page.getByLabel('User').inputValue()).toBe('ana');
      const rows = page.locator('tbody tr');
      expect(await rows.count()).toBe(2);
      expect(await page.locator('tr[data-session="needs-approval"] .badge').textContent()).toBe('interrupted');
      expect(await page.locator('tr[data-session="graph-done"] .badge').textContent()).toBe('completed');
      expect(await page.locator('tr[data-session="graph-done"]').textContent()).toContain('Research it');
    } finally {
      await page.close();
      await studio.close();
    }
  };

  it('in-memory store (apps and users from hints)', async () => {
    await check(new InMemorySessionStore(), { apps: ['shop'], users: ['ana'] });
  });

  it('file store (apps and users discovered from its directory)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'studio-files-'));
    try {
      await check(new FileSessionStore({ dir }), {});
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  pg.it('PostgreSQL store (apps and users from hints)', async () => {
    const store = new PostgresSessionStore({ connectionString: pg.connectionString, schema: pg.freshSchema('studio') });
    try {
      await check(store, { apps: ['shop'], users: ['ana'] });
    } finally {
      await store.close();
    }
  });

  it('pages through many sessions with the store cursor', async () => {
    const store = new InMemorySessionStore();
    for (let i = 0; i < 120; i++) await store.create({ appName: 'bulk', userId: 'bo', id: `s-${String(i).padStart(3, '0')}` });
    const studio = await serveStudio({ store, apps: ['bulk'], users: ['bo'] });
    const page = await browser().newPage();
    try {
      await page.goto(studio.url);
      await page.waitForSelector('tr[data-session="s-000"]');
      expect(await page.locator('tbody tr').count()).toBe(50);
      await page.getByRole('button', { name: 'Next page' }).click();
      await page.waitForSelector('tr[data-session="s-050"]');
      await page.getByRole('button', { name: 'Next page' }).click();
      await page.waitForSelector('tr[data-session="s-119"]');
      expect(await page.locator('tbody tr').count()).toBe(20);
      expect(await page.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
      await page.getByRole('button', { name: 'Previous page' }).click();
      await page.waitForSelector('tr[data-session="s-050"]');
    } finally {
      await page.close();
      await studio.close();
    }
  });
});
