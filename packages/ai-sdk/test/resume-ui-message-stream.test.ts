import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSessionStore, InMemorySessionStore } from '@replan/core';
import { describe, expect, it } from 'vitest';
import { resumeUIMessageStream, toUIMessageStream, uiChunkId, type ReplanUIChunk } from '../src/index.js';
import { collect, gate, readMessage, tripRunner } from './support/trip-run.js';

const user = { userId: 'ana', sessionId: 'trip-1' };
/** Stored chunks have ids `<tag>:<seq>.<n>`; live-only ones (deltas, the end of an interrupted run) `<tag>:<seq>+<k>`. */
const isStored = (id: string | undefined) => id !== undefined && /\.\d+$/.test(id);

describe('resumeUIMessageStream', () => {
  it('replays exactly the chunks after a mid-stream id, then stops where the run stopped', async () => {
    const { runner, store } = tripRunner();
    // Not streamed: the live stream is then made of stored events only, chunk for chunk what a replay sends.
    const run = runner.run({ ...user, input: 'Book' });
    const live = await collect(toUIMessageStream(run, { runner, ...user }));
    const stored = live.filter((c) => isStored(c.id));
    // Ids follow the session's event sequence: strictly increasing (seq, n).
    const positions = stored.map((c) => c.id!.split(':')[1]!.split('.').map(Number) as [number, number]);
    for (let i = 1; i < positions.length; i++) {
      const [a, b] = [positions[i - 1]!, positions[i]!];
      expect(b[0] > a[0] || (b[0] === a[0] && b[1] > a[1])).toBe(true);
    }
    for (const cut of [3, Math.floor(stored.length / 2), stored.length - 2]) {
      const after = stored[cut]!.id!;
      const replay = await collect(resumeUIMessageStream({ store, appName: 'trips', ...user, after }));
      expect(replay.filter((c) => isStored(c.id))).toEqual(stored.slice(cut + 1));
      // The run stopped on the approval: the replay ends the message as the live stream did.
      expect(replay.at(-1)?.chunk).toEqual({ type: 'finish' });
    }
  });

  it('without an id, replays the last run from its start: the same message as the streamed one', async () => {
    const { runner, store } = tripRunner();
    const run = runner.run({ ...user, input: 'Book', stream: true });
    const live = await collect(toUIMessageStream(run, { runner, ...user }));
    expect(live.some((c) => c.chunk.type === 'text-delta' && !isStored(c.id))).toBe(true);
    const replay = await collect(resumeUIMessageStream({ runner, ...user }));
    // Deltas are not stored: the replay sends each text whole, as one delta.
    expect(replay.every((c) => isStored(c.id) || c.chunk.type === 'finish')).toBe(true);
    const a = await readMessage(live.map((c) => c.chunk));
    const b = await readMessage(replay.map((c) => c.chunk));
    expect(b).toEqual(a);
    expect(store).toBe(runner.sessionStore);
  });

  it('from a mid-stream id of a running run: the remaining stored chunks, then the live ones as they are stored', async () => {
    const hold = gate();
    const { runner, store } = tripRunner({ hold: hold.opened });
    const run = runner.run({ ...user, input: 'Book', stream: true });
    const liveStream = toUIMessageStream(run, { runner, ...user });
    const reader = liveStream.getReader();
    const seen: { id: string | undefined; chunk: ReplanUIChunk }[] = [];
    // Read until the search tool's call is out (the tool then waits on the gate).
    while (!seen.some((c) => c.chunk.type === 'tool-input-available')) {
      const { value } = await reader.read();
      seen.push({ id: uiChunkId(value!), chunk: value! });
    }
    const cut = seen.filter((c) => isStored(c.id)).at(-3)!;
    // The page goes away mid-run: its stream is cancelled, the run goes on.
    await reader.cancel();
    const resumed = collect(resumeUIMessageStream({ store, appName: 'trips', ...user, after: cut.id ?? null, pollMs: 60_000 }));
    hold.open();
    const result = await run.result();
    expect(result.status).toBe('interrupted');
    const replay = await resumed;
    // What a reader that never left got, from the same run's log.
    const full = await collect(resumeUIMessageStream({ store, appName: 'trips', ...user }));
    const fullStored = full.filter((c) => isStored(c.id));
    const index = fullStored.findIndex((c) => c.id === cut.id);
    expect(index).toBeGreaterThan(0);
    expect(replay.filter((c) => isStored(c.id))).toEqual(fullStored.slice(index + 1));
    // It followed the run past the gate to its approval request, woken by the run's own events (the poll is a minute).
    expect(replay.some((c) => c.chunk.type === 'tool-approval-request')).toBe(true);
    expect(replay.at(-1)?.chunk).toEqual({ type: 'finish' });
  });

  it('follows a run in a file store it only reads (another process would read the same files)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'replan-ai-sdk-'));
    try {
      const hold = gate();
      const { runner } = tripRunner({ store: new FileSessionStore({ dir }), hold: hold.opened });
      const run = runner.run({ ...user, input: 'Book', stream: true });
      // Not read: nothing in this process announces its events.
      const reader = new FileSessionStore({ dir });
      const key = { appName: 'trips', userId: user.userId, id: user.sessionId };
      while (!(await reader.get(key))?.events.some((e) => e.message?.content.some((b) => b.type === 'tool_call' && b.name === 'search')))
        await new Promise((r) => setTimeout(r, 10));
      const resumed = collect(resumeUIMessageStream({ store: reader, appName: 'trips', ...user, pollMs: 200 }));
      hold.open();
      await run.result();
      const message = await readMessage((await resumed).map((c) => c.chunk));
      expect(message.parts.some((p) => p.type === 'dynamic-tool' && p.state === 'approval-requested')).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("wakes on the store's own watchSession (as PostgresSessionStore's LISTEN/NOTIFY does)", async () => {
    const hold = gate();
    const memory = new InMemorySessionStore();
    const watchers = new Set<() => void>();
    let watchCalls = 0;
    // A store that tells of its appends itself; the run is not streamed here, so nothing else wakes the reader.
    const store = Object.assign(Object.create(memory) as InMemorySessionStore, {
      appendEvents: async (...args: Parameters<InMemorySessionStore['appendEvents']>) => {
        const result = await memory.appendEvents(...args);
        for (const wake of [...watchers]) wake();
        return result;
      },
      watchSession: (_key: unknown, onChange: () => void) => {
        watchCalls++;
        watchers.add(onChange);
        return () => watchers.delete(onChange);
      },
    });
    const { runner } = tripRunner({ store, hold: hold.opened });
    const run = runner.run({ ...user, input: 'Book' });
    const key = { appName: 'trips', userId: user.userId, id: user.sessionId };
    while (!(await store.get(key))) await new Promise((r) => setTimeout(r, 5));
    // The poll is a minute and the test's limit 20 s: only the store's notices can finish it.
    const resumed = collect(resumeUIMessageStream({ store, appName: 'trips', ...user, pollMs: 60_000 }));
    hold.open();
    await run.result();
    const chunks = await resumed;
    expect(watchCalls).toBe(1);
    expect(chunks.some((c) => c.chunk.type === 'tool-approval-request')).toBe(true);
    expect(watchers.size).toBe(0);
  });

  it("wakes on the caller's subscribe option (change notifications of a store without watchSession)", async () => {
    const hold = gate();
    const memory = new InMemorySessionStore();
    const listeners = new Set<() => void>();
    const subscribed: unknown[] = [];
    let unsubscribed = 0;
    // The store itself announces nothing: the caller's notifications (e.g. a message bus) are wired to its appends.
    const store = Object.assign(Object.create(memory) as InMemorySessionStore, {
      appendEvents: async (...args: Parameters<InMemorySessionStore['appendEvents']>) => {
        const result = await memory.appendEvents(...args);
        for (const onChange of [...listeners]) onChange();
        return result;
      },
    });
    expect('watchSession' in store).toBe(false);
    const subscribe = (key: unknown, onChange: () => void) => {
      subscribed.push(key);
      listeners.add(onChange);
      return () => {
        unsubscribed++;
        listeners.delete(onChange);
      };
    };
    const { runner } = tripRunner({ store, hold: hold.opened });
    // Not streamed: no live stream of this process wakes the reader either.
    const run = runner.run({ ...user, input: 'Book' });
    const key = { appName: 'trips', userId: user.userId, id: user.sessionId };
    while (!(await store.get(key))) await new Promise((r) => setTimeout(r, 5));
    // The poll is a minute and the test's limit 20 s: only the subscription's notices can finish it.
    const resumed = collect(resumeUIMessageStream({ store, appName: 'trips', ...user, pollMs: 60_000, subscribe }));
    hold.open();
    const result = await run.result();
    expect(result.status).toBe('interrupted');
    const chunks = await resumed;
    expect(subscribed).toEqual([key]);
    expect(chunks.some((c) => c.chunk.type === 'tool-approval-request')).toBe(true);
    expect(chunks.at(-1)?.chunk).toEqual({ type: 'finish' });
    expect(unsubscribed).toBe(1);
    expect(listeners.size).toBe(0);
  });

  describe('bad resume ids: an empty stream with a typed error', () => {
    const errorOnly = async (after: string, sessionId = user.sessionId) => {
      const { runner } = tripRunner();
      await runner.run({ ...user, input: 'Book' }).result();
      await runner.run({ userId: user.userId, sessionId: 'other', input: 'Book' }).result();
      return collect(resumeUIMessageStream({ runner, userId: user.userId, sessionId, after }));
    };

    it('an id from another session', async () => {
      const { runner } = tripRunner();
      const run = runner.run({ userId: user.userId, sessionId: 'other', input: 'Book', stream: true });
      const otherId = (await collect(toUIMessageStream(run, { runner, userId: user.userId, sessionId: 'other' })))[2]!.id!;
      const chunks = await errorOnly(otherId);
      expect(chunks).toHaveLength(1);
      expect(chunks[0]?.chunk).toMatchObject({ type: 'error', errorText: expect.stringMatching(/^UIStreamError: .*another session/) });
    });

    it('an id past the end of the log', async () => {
      const { runner } = tripRunner();
      const run = runner.run({ ...user, input: 'Book', stream: true });
      const id = (await collect(toUIMessageStream(run, { runner, ...user })))[0]!.id!;
      const tag = id.split(':')[0];
      const chunks = await errorOnly(`${tag}:9999.0`);
      expect(chunks.map((c) => c.chunk)).toEqual([{ type: 'error', errorText: expect.stringMatching(/^UIStreamError: .*9999/) }]);
    });

    it('not an id at all, or a session that does not exist', async () => {
      expect((await errorOnly('banana')).map((c) => c.chunk)).toEqual([
        { type: 'error', errorText: expect.stringMatching(/^UIStreamError: Cannot resume/) },
      ]);
      const { runner } = tripRunner();
      const missing = await collect(resumeUIMessageStream({ runner, userId: 'ana', sessionId: 'nobody' }));
      expect(missing.map((c) => c.chunk)).toEqual([{ type: 'error', errorText: expect.stringMatching(/^UIStreamError: No session/) }]);
    });
  });
});
