import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSessionStore, InMemorySessionStore, type AgentEvent, type SessionStore } from '@replan/core';
import { afterEach, describe, expect, it } from 'vitest';
import { serveStudio, type StudioHandle } from '../src/index.js';
import { tokenOf } from './support/http.js';

const KEY = { appName: 'live', userId: 'ana', id: 's' };
const event = (i: number): AgentEvent => ({
  id: `e${i}`,
  invocationId: 'inv',
  author: 'user',
  path: 'user',
  timestamp: Date.now(),
  message: { role: 'user', content: [{ type: 'text', text: `hi ${i}` }] },
});

let studio: StudioHandle | undefined;
let dir: string | undefined;
afterEach(async () => {
  await studio?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  studio = undefined;
  dir = undefined;
});

/** Reads the live stream's versions as they come. */
async function follow(url: string, versions: number[]): Promise<AbortController> {
  const controller = new AbortController();
  const origin = new URL(url).origin;
  const response = await fetch(`${origin}/api/live?app=${KEY.appName}&user=${KEY.userId}&id=${KEY.id}`, {
    headers: { 'x-replan-token': tokenOf(url) },
    signal: controller.signal,
  });
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  void (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>)
        for (const m of decoder.decode(chunk).matchAll(/data: (\{.*\})/g))
          versions.push((JSON.parse(m[1] as string) as { version: number }).version);
    } catch {
      // aborted
    }
  })();
  return controller;
}

describe('live changes over server-sent events', () => {
  const appendFromElsewhere = async (writer: SessionStore) => {
    const session = await writer.get(KEY);
    await writer.appendEvents(KEY, [event(session!.version)], { expectedVersion: session!.version });
  };

  it('file store: another process’s append reaches the page through file watching (not the 5 s re-read)', async () => {
    dir = await mkdtemp(join(tmpdir(), 'studio-live-'));
    const store = new FileSessionStore({ dir });
    await store.create(KEY, [event(0)]);
    studio = await serveStudio({ store });
    const versions: number[] = [];
    const stream = await follow(studio.url, versions);
    await expect.poll(() => versions, { timeout: 2000 }).toEqual([1]);
    await appendFromElsewhere(new FileSessionStore({ dir })); // a second store instance: as another process would
    await expect.poll(() => versions, { timeout: 2500, interval: 50 }).toEqual([1, 2]);
    stream.abort();
  });

  it('stores that cannot signal (in-memory written by another runner, PostgreSQL) are re-read gently', async () => {
    const store = new InMemorySessionStore();
    await store.create(KEY, [event(0)]);
    studio = await serveStudio({ store, pollMs: 100 });
    const versions: number[] = [];
    const stream = await follow(studio.url, versions);
    await appendFromElsewhere(store);
    await appendFromElsewhere(store);
    await expect.poll(() => versions.at(-1), { timeout: 3000 }).toBe(3);
    expect(versions[0]).toBe(1);
    stream.abort();
  });
});
