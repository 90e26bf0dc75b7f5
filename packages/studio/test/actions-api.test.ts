import { InMemorySessionStore, Runner, type ModelRequest } from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { afterEach, describe, expect, it } from 'vitest';
import { serveStudio, type StudioHandle } from '../src/index.js';
import { statusOf } from '../src/view/session-status.js';
import { rawRequest, tokenOf } from './support/http.js';
import { approvalScenario, reviewScenario } from './support/scenarios.js';

let studio: StudioHandle | undefined;
afterEach(async () => {
  await studio?.close();
  studio = undefined;
});

const isPlanner = (r: ModelRequest) => typeof r.toolChoice === 'object' && r.toolChoice.name === 'plan';

/** Linear, one step; the executor's model fails its first call (the run fails), then works. */
function flakyRunner(store: InMemorySessionStore) {
  let failures = 1;
  const model = new ScriptedModel({
    respond: (request) => {
      if (isPlanner(request)) return callTools({ name: 'plan', args: { steps: ['Do it'] } });
      if (request.tools?.some((t) => t.name === 'respond')) return callTools({ name: 'respond', args: { response: 'done' } });
      if (failures-- > 0) return new Error('model overloaded');
      return 'did it';
    },
  });
  return new Runner({ agent: createPlanExecuteAgent({ model }), appName: 'flaky', sessionStore: store });
}

async function post(route: string, body: unknown) {
  const origin = new URL(studio!.url).origin;
  const res = await rawRequest(`${origin}/api/${route}`, {
    method: 'POST',
    headers: { 'x-replan-token': tokenOf(studio!.url), origin, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: JSON.parse(res.body) as Record<string, unknown> };
}

const stored = async (store: InMemorySessionStore, appName: string, id: string) =>
  statusOf((await store.get({ appName, userId: 'ana', id }))?.events ?? []).status;

describe('acting through the API', () => {
  it('resumes a failed run to completion', async () => {
    const store = new InMemorySessionStore();
    const runner = flakyRunner(store);
    expect((await runner.run({ userId: 'ana', sessionId: 'f', input: 'go' }).result()).status).toBe('failed');
    studio = await serveStudio({ store, runners: [runner] });
    expect(await stored(store, 'flaky', 'f')).toBe('failed');
    expect((await post('resume', { app: 'flaky', user: 'ana', id: 'f' })).status).toBe(202);
    await expect.poll(() => stored(store, 'flaky', 'f')).toBe('completed');
  });

  it('answers only open interrupts: an unknown interrupt id is refused before anything is written', async () => {
    const store = new InMemorySessionStore();
    const runner = approvalScenario(store, 'approval-app');
    await runner.run({ userId: 'ana', sessionId: 'a', input: 'send' }).result();
    studio = await serveStudio({ store, runners: [runner] });
    const version = (await store.get({ appName: 'approval-app', userId: 'ana', id: 'a' }))!.version;
    const refused = await post('resume', { app: 'approval-app', user: 'ana', id: 'a', values: { 'no-such-interrupt': true } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'ResumeError', kind: 'unknown_interrupt' });
    expect((await store.get({ appName: 'approval-app', userId: 'ana', id: 'a' }))!.version).toBe(version);
    expect((await post('resume', { app: 'approval-app', user: 'ana', id: 'a', values: [true] })).status).toBe(400);
  });

  it('new input for a session waiting on an approval is a 409 naming it; nothing is stored', async () => {
    const store = new InMemorySessionStore();
    const runner = approvalScenario(store, 'approval-app');
    await runner.run({ userId: 'ana', sessionId: 'w', input: 'send' }).result();
    studio = await serveStudio({ store, runners: [runner] });
    const version = (await store.get({ appName: 'approval-app', userId: 'ana', id: 'w' }))!.version;
    const refused = await post('run', { app: 'approval-app', user: 'ana', sessionId: 'w', input: 'something else' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: 'ResumeError', kind: 'open_interrupts' });
    expect(refused.body.message).toMatch(/waiting on 1 open interrupt/);
    expect((await store.get({ appName: 'approval-app', userId: 'ana', id: 'w' }))!.version).toBe(version);
  });

  it('an invalid plan review answer is a 400 with its typed error; nothing is stored and the review stays open', async () => {
    const store = new InMemorySessionStore();
    const runner = reviewScenario(store);
    const stopped = await runner.run({ userId: 'ana', sessionId: 'r', input: 'Plan the offsite' }).result();
    const review = stopped.interrupts.find((i) => i.reason === 'plan_review')!;
    studio = await serveStudio({ store, runners: [runner] });
    const version = (await store.get({ appName: 'review-app', userId: 'ana', id: 'r' }))!.version;
    const refused = await post('resume', { app: 'review-app', user: 'ana', id: 'r', values: { [review.id]: { edit: { steps: [''] } } } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'ResumeError', kind: 'invalid_value' });
    expect(refused.body.message).toMatch(/a step cannot be empty/);
    expect((await store.get({ appName: 'review-app', userId: 'ana', id: 'r' }))!.version).toBe(version);
    expect(await stored(store, 'review-app', 'r')).toBe('interrupted');
  });

  it('fork copies the events up to the index, leaves shared scopes alone, and refuses an index outside the session', async () => {
    const store = new InMemorySessionStore();
    const runner = approvalScenario(store, 'approval-app');
    await runner.run({ userId: 'ana', sessionId: 'src', input: 'send', state: { 'app:motto': 'old', own: 1 } }).result();
    const key = { appName: 'approval-app', userId: 'ana', id: 'src' };
    const before = (await store.get(key))!;
    // an event of the source writes the shared scope …
    const write = {
      id: 'w',
      invocationId: 'x',
      author: 'user',
      path: 'user',
      timestamp: 1,
      actions: { stateDelta: { 'app:motto': 'from-event', mine: 2 } },
    };
    await store.appendEvents(key, [write], { expectedVersion: before.version });
    // … and later another session writes it again
    await store.create({ appName: 'approval-app', userId: 'bo', id: 'other', state: { 'app:motto': 'new' } });
    studio = await serveStudio({ store, runners: [runner] });
    const source = (await store.get({ appName: 'approval-app', userId: 'ana', id: 'src' }))!;
    const last = source.events.length - 1;
    const forked = await post('fork', { app: 'approval-app', user: 'ana', id: 'src', index: last, newId: 'copy' });
    expect(forked).toEqual({ status: 201, body: { sessionId: 'copy' } });
    const copy = (await store.get({ appName: 'approval-app', userId: 'ana', id: 'copy' }))!;
    expect(copy.events.map((e) => e.id)).toEqual(source.events.map((e) => e.id));
    expect(copy.state.own).toBe(1);
    expect(copy.state.mine).toBe(2);
    const partial = await post('fork', { app: 'approval-app', user: 'ana', id: 'src', index: 2, newId: 'early' });
    expect(partial.status).toBe(201);
    expect((await store.get({ appName: 'approval-app', userId: 'ana', id: 'early' }))!.events).toHaveLength(3);
    expect(copy.state['app:motto']).toBe('new'); // the fork did not write the old shared value back
    expect((await post('fork', { app: 'approval-app', user: 'ana', id: 'src', index: source.events.length })).status).toBe(400);
    expect((await post('fork', { app: 'approval-app', user: 'ana', id: 'src', index: 1, newId: 'copy' })).status).toBe(409);
  });

  it('refuses runners on another store, or keyed by another app', async () => {
    const store = new InMemorySessionStore();
    await expect(serveStudio({ store, runners: [approvalScenario(new InMemorySessionStore())] })).rejects.toMatchObject({
      name: 'StudioError',
      kind: 'configuration',
    });
    await expect(serveStudio({ store, runners: { wrong: approvalScenario(store, 'approval-app') } })).rejects.toThrow(
      /key each runner by its appName/,
    );
  });
});
