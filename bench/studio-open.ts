/**
 * The studio over big data: opening a 10,000-event session (server: the digest and the last
 * timeline page; browser: from navigation to the drawn page) and paging 10,000 sessions.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSessionStore, InMemorySessionStore, type SessionStore } from '@replan/core';
import { serveStudio } from '@replan/studio';
import { hasChromium, launchChromium } from '../packages/studio/test/support/browser.js';
import { fmt, medianMs, table } from './measure.js';
import { storeLog, unfinishedLog } from './session-log.js';

const KEY = { appName: 'bench', userId: 'u', id: 'big' };

/** Each measure starts a new studio, so nothing is cached: the session is loaded from the store. */
async function openTimes(store: SessionStore, label: string): Promise<(string | number)[]> {
  const q = new URLSearchParams({ app: KEY.appName, user: KEY.userId, id: KEY.id });
  const server = await medianMs(
    async () => {
      const studio = await serveStudio({ store });
      const origin = new URL(studio.url).origin;
      const headers = { 'x-replan-token': new URL(studio.url).searchParams.get('token') ?? '' };
      await Promise.all([
        fetch(`${origin}/api/session?${q}`, { headers }).then((r) => r.json()),
        fetch(`${origin}/api/events?${q}&offset=-1`, { headers }).then((r) => r.json()),
      ]);
      await studio.close();
    },
    5,
    2,
  );
  let browser = 'no chromium';
  if (hasChromium()) {
    const chromium = await launchChromium();
    const page = await chromium.newPage();
    const open = async () => {
      const studio = await serveStudio({ store });
      await page.goto(`${studio.url}#/session?${q}`);
      await page.waitForSelector('body[data-ready="session"] .events li');
      await page.goto('about:blank');
      await studio.close();
    };
    browser = fmt(await medianMs(open, 5, 2));
    await chromium.close();
  }
  return [label, fmt(server), browser];
}

export async function studioOpen(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-studio-'));
  const rows: (string | number)[][] = [];
  try {
    const events = unfinishedLog(10_000);
    const memory = new InMemorySessionStore();
    await storeLog(memory, KEY, events);
    rows.push(await openTimes(memory, 'InMemorySessionStore'));
    const file = new FileSessionStore({ dir });
    await storeLog(file, KEY, events);
    rows.push(await openTimes(file, 'FileSessionStore'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  // 10,000 sessions: the first page and a page far in (the store's cursor), 50 rows each.
  const many = new InMemorySessionStore();
  for (let i = 0; i < 10_000; i++) await many.create({ appName: 'bench', userId: 'u', id: `s${String(i).padStart(5, '0')}` });
  const studio = await serveStudio({ store: many });
  const origin = new URL(studio.url).origin;
  const headers = { 'x-replan-token': new URL(studio.url).searchParams.get('token') ?? '' };
  const far = (await many.list({ appName: 'bench', userId: 'u', limit: 9_000 })).nextCursor ?? '';
  const first = await medianMs(() => fetch(`${origin}/api/sessions?app=bench&user=u&limit=50`, { headers }).then((r) => r.json()), 9, 3);
  const later = await medianMs(
    () => fetch(`${origin}/api/sessions?app=bench&user=u&limit=50&cursor=${far}`, { headers }).then((r) => r.json()),
    9,
    3,
  );
  await studio.close();
  return [
    '### Studio: opening a 10,000-event session',
    table(['store', 'server: digest + last timeline page (ms, median of 5)', 'chromium: navigate to drawn page (ms, median of 5)'], rows),
    '',
    `10,000 sessions (in-memory store), 50 per page: first page ${fmt(first)} ms, page 181 (via the cursor) ${fmt(later)} ms (medians of 9).`,
  ].join('\n\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await studioOpen());
