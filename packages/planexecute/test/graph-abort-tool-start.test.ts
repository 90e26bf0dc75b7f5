import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSessionStore, InMemorySessionStore, type AgentEvent, type SessionStore } from '@replan/core';
import { callTools, holdAppend } from '@replan/core/testing';
import { collect, countingTool, respondCall } from './support.js';
import { graphCall, graphHarness } from './graph-support.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** The `q` of each `work` call in these events. */
const workCalls = (events: readonly AgentEvent[]) =>
  events.flatMap((e) =>
    e.message?.role === 'assistant'
      ? e.message.content.flatMap((b) => (b.type === 'tool_call' && b.name === 'work' ? [(b.args as { q: string }).q] : []))
      : [],
  );

const stores: [string, () => Promise<SessionStore>][] = [
  ['InMemorySessionStore', async () => new InMemorySessionStore()],
  [
    'FileSessionStore',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'replan-graph-abort-'));
      dirs.push(dir);
      return new FileSessionStore({ dir });
    },
  ],
];

describe.each(stores)('graph executor, aborted while a step stores its tool call (%s)', (_name, createStore) => {
  it('starts no tool of any parallel step after the abort; the resume runs each stored call once', async () => {
    const store = await createStore();
    const held = holdAppend(store, { when: (events) => workCalls(events).length > 0 }); // not the planner's `plan` call
    const work = countingTool('work');
    const ids = ['a', 'b', 'c'];
    const first = graphHarness({
      planner: [graphCall(...ids.map((id): [string, string, string[]] => [id, `task ${id}`, []]))],
      steps: Object.fromEntries(ids.map((id) => [`task ${id}`, [callTools({ name: 'work', args: { q: id } }), `${id} done`]])),
      tools: [work.tool],
      store: held.store,
    });
    const controller = new AbortController();
    const run = first.runner.run({ userId: 'u', input: 'go', signal: controller.signal });
    await held.written;
    controller.abort();
    held.release();
    const stopped = await run.result();
    expect(stopped.status).toBe('aborted');
    expect(work.calls).toEqual([]);

    // What was stored before the run stopped is run once by the resume; the other steps ask their model again.
    const stored = new Set(workCalls(await first.events(stopped.sessionId)));
    expect(stored.size).toBeGreaterThan(0);
    const again = graphHarness({
      planner: [],
      steps: Object.fromEntries(
        ids.map((id) => [`task ${id}`, stored.has(id) ? [`${id} done`] : [callTools({ name: 'work', args: { q: id } }), `${id} done`]]),
      ),
      tools: [work.tool],
      store,
      replanner: [respondCall('all done')],
    });
    const { result } = await collect(again.runner.resume({ userId: 'u', sessionId: stopped.sessionId }));
    expect(result).toMatchObject({ status: 'completed', output: 'all done' });
    expect(work.calls.sort()).toEqual(['a', 'b', 'c']);
  });
});
