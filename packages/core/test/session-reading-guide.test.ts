// The code of "Reading sessions" in docs/session-stores.md: the snippets there are copied from
// this file (doc-snippets.test.ts checks they stay the same).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { eventKind, InMemorySessionStore, messageText, ReActAgent, Runner, type SessionSummary, tool } from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';

/** A tool that writes state in each scope: user-wide, for this session, and for this run only. */
const remember = tool({
  name: 'remember',
  description: 'Remembers the language',
  parameters: z.object({ lang: z.string() }),
  execute: ({ lang }, ctx) => {
    ctx.state.set('user:lang', lang); // every session of this user
    ctx.state.set('topic', 'greetings'); // this session
    ctx.state.set('temp:scratch', 'x'); // this run only, never stored
    return 'ok';
  },
});

async function storeWithSessions() {
  const store = new InMemorySessionStore();
  const model = new ScriptedModel({
    respond: (request) => (request.messages.at(-1)?.role === 'tool' ? 'Noted.' : callTools({ name: 'remember', args: { lang: 'fr' } })),
  });
  const agent = new ReActAgent({ name: 'helper', model, tools: [remember] });
  const runner = new Runner({ agent, appName: 'app', sessionStore: store });
  for (const id of ['s1', 's2', 's3'])
    await runner.run({ userId: 'u1', sessionId: id, input: `hello from ${id}`, state: { 'app:motd': 'Welcome' } }).result();
  await store.create({ appName: 'app', userId: 'u2', id: 'other' }); // another user, no run yet
  return store;
}

describe('reading sessions (docs/session-stores.md)', () => {
  it('pages through one user’s sessions', async () => {
    const store = await storeWithSessions();

    const summaries: SessionSummary[] = [];
    let cursor: string | undefined;
    do {
      const page = await store.list({ appName: 'app', userId: 'u1', limit: 2, ...(cursor ? { cursor } : {}) });
      summaries.push(...page.sessions);
      cursor = page.nextCursor;
    } while (cursor);

    expect(summaries.map((s) => s.id)).toEqual(['s1', 's2', 's3']);
    expect(summaries.every((s) => s.version > 0 && s.updatedAt >= s.createdAt)).toBe(true);
  });

  it('reads a session: its state by scope and its events', async () => {
    const store = await storeWithSessions();

    const session = await store.get({ appName: 'app', userId: 'u1', id: 's2' });
    if (!session) throw new Error('no session s2');
    expect(session.state).toEqual({ 'app:motd': 'Welcome', 'user:lang': 'fr', topic: 'greetings' });
    expect(session.version).toBe(session.events.length);

    const transcript = session.events.flatMap((event) => {
      const kind = eventKind(event);
      if (kind.kind === 'user-message') return [`user: ${messageText(kind.message)}`];
      if (kind.kind === 'tool-calls') return kind.calls.map((call) => `${event.author} calls ${call.name}`);
      if (kind.kind === 'answer') return [`${event.author}: ${kind.final.text}`];
      return [];
    });
    expect(transcript).toEqual(['user: hello from s2', 'helper calls remember', 'helper: Noted.']);
  });

  it('shares app: and user: state, and keeps users apart', async () => {
    const store = await storeWithSessions();

    const other = await store.get({ appName: 'app', userId: 'u2', id: 'other' });
    expect(other?.state).toEqual({ 'app:motd': 'Welcome' }); // app-wide, but not u1's user: keys
    expect(await store.get({ appName: 'app', userId: 'u2', id: 's1' })).toBeUndefined();
  });
});
