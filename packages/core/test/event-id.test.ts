import { describe, expect, it } from 'vitest';
import { newEventId } from '../src/events/event-id.js';
import { ReActAgent, Runner } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('event ids', () => {
  it('are random version-4 UUIDs, distinct across many (past the random pool refills)', () => {
    const ids = Array.from({ length: 5000 }, newEventId);
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(ids.length);
    // Every hex digit shows up in every free position: the bytes are random, not a counter.
    expect(new Set(ids.map((id) => id[0])).size).toBe(16);
  });

  it('are what a runner stamps on sessions, invocations and events by default', async () => {
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model: new ScriptedModel({ responses: ['ok'] }) }), appName: 'ids' });
    const result = await runner.run({ userId: 'u', input: 'hi' }).result();
    const session = await runner.sessionStore.get({ appName: 'ids', userId: 'u', id: result.sessionId });
    expect(result.sessionId).toMatch(UUID_V4);
    for (const event of session?.events ?? []) {
      expect(event.id).toMatch(UUID_V4);
      expect(event.invocationId).toMatch(UUID_V4);
    }
  });
});
