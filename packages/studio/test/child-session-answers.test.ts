import { childSessionId, InMemorySessionStore } from '@replan/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionDigest } from '../web/src/wire-types.js';
import { serveStudio, type StudioHandle } from '../src/index.js';
import { statusOf } from '../src/view/session-status.js';
import { rawRequest, tokenOf } from './support/http.js';
import { nestedApprovalScenario } from './support/scenarios.js';

let studio: StudioHandle | undefined;
afterEach(async () => {
  await studio?.close();
  studio = undefined;
});

async function call(method: 'GET' | 'POST', route: string, body?: unknown) {
  const url = new URL(studio!.url);
  const query = method === 'GET' ? `?${new URLSearchParams(body as Record<string, string>)}` : '';
  const res = await rawRequest(`${url.origin}/api/${route}${query}`, {
    method,
    headers: {
      'x-replan-token': tokenOf(studio!.url),
      origin: url.origin,
      ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
    },
    ...(method === 'POST' ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: JSON.parse(res.body) as Record<string, unknown> };
}

describe('a child session’s interrupt in the studio', () => {
  it('is shown with where it is answered (the root session, the nested id); answering there runs the tool once', async () => {
    const store = new InMemorySessionStore();
    const { runner, published } = nestedApprovalScenario(store, 'nested-app');
    const first = await runner.run({ userId: 'ana', sessionId: 's', input: 'go' }).result();
    expect(first.status).toBe('interrupted');
    const childId = childSessionId('s', first.invocationId, 'o1');
    const childKey = { appName: 'nested-app', userId: 'ana', id: childId };
    studio = await serveStudio({ store, runners: [runner] });

    // The child's view: linked to its parent, its interrupt answered in the root under the nested id.
    const child = (await call('GET', 'session', { app: 'nested-app', user: 'ana', id: childId })).body as unknown as SessionDigest;
    expect(child.status).toBe('interrupted');
    expect(child.parent).toEqual({ sessionId: 's', toolCallId: 'o1', rootSessionId: 's' });
    expect(child.interrupts).toEqual([
      expect.objectContaining({ id: 'a1:approval', answerIn: { sessionId: 's', interruptId: 'o1/a1:approval' } }),
    ]);
    // The root's own view answers in place.
    const root = (await call('GET', 'session', { app: 'nested-app', user: 'ana', id: 's' })).body as unknown as SessionDigest;
    expect(root.parent).toBeUndefined();
    expect(root.interrupts.map((i) => [i.id, i.answerIn])).toEqual([['o1/a1:approval', undefined]]);

    // An answer addressed to the child itself is refused, naming where to answer; nothing is stored.
    const before = await store.get(childKey);
    const refused = await call('POST', 'resume', { app: 'nested-app', user: 'ana', id: childId, values: { 'a1:approval': true } });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('ChildSessionError');
    expect(refused.body.message).toContain('session "s"');
    expect(refused.body.message).toContain('"o1/a1:approval"');
    expect(await store.get(childKey)).toEqual(before);
    expect(published).toEqual([]);

    // The page's Approve on the child's interrupt posts what `answerIn` says.
    const target = child.interrupts[0]!.answerIn!;
    const answered = await call('POST', 'resume', {
      app: 'nested-app',
      user: 'ana',
      id: target.sessionId,
      values: { [target.interruptId]: true },
    });
    expect(answered.status).toBe(202);
    const statusOfSession = async (id: string) => statusOf((await store.get({ ...childKey, id }))?.events ?? []).status;
    await expect.poll(() => statusOfSession('s')).toBe('completed');
    expect(await statusOfSession(childId)).toBe('completed');
    expect(published).toEqual(['Tides']);
    expect((await store.list({ appName: 'nested-app', userId: 'ana' })).sessions.map((s) => s.id).sort()).toEqual([childId, 's'].sort());
  });
});
