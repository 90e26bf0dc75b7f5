import { InMemorySessionStore, ReActAgent, Runner } from '@replan/core';
import { describe, expect, it } from 'vitest';
import { OpenAIChatModel } from '../src/index.js';
import { useFakeServer } from './support/fake-server.js';
import { completion } from './support/payloads.js';
import { flightBooking, payTool } from '../../core/test/support/bookings.js';

const server = useFakeServer();

/** What Anthropic (and LiteLLM in front of it) accepts as a tool-call id. */
const SAFE = /^[a-zA-Z0-9_-]+$/;

type WireMessage = { role: string; tool_calls?: { id: string }[]; tool_call_id?: string };

describe('a session with a compensation, sent to a strict provider', () => {
  it('sends only wire-safe tool-call ids: the compensation <id>:compensate is mapped the same way in its call and its result', async () => {
    server.reply(
      {
        json: completion(
          {
            content: null,
            tool_calls: [
              { id: 'toolu_1', type: 'function', function: { name: 'book_flight', arguments: '{"what":"LHR"}' } },
              { id: 'toolu_2', type: 'function', function: { name: 'pay', arguments: '{}' } },
            ],
          },
          'tool_calls',
        ),
      },
      { json: completion({ content: 'Your trip was cancelled.' }) },
    );
    const model = new OpenAIChatModel({ model: 'claude-sonnet-4-5', baseURL: server.baseURL, apiKey: 'k', maxRetries: 0 });
    const agent = new ReActAgent({ name: 'travel', model, tools: [flightBooking, payTool] });
    const store = new InMemorySessionStore();
    const runner = new Runner({ agent, appName: 'trips', sessionStore: store });
    const key = { userId: 'u', sessionId: 's' };
    expect((await runner.run({ ...key, input: 'book a trip' }).result()).status).toBe('interrupted');
    const cancelled = await runner.cancel({ ...key, compensate: true }).result();
    expect(cancelled.compensation?.undone).toEqual([{ callId: 'toolu_1', tool: 'book_flight' }]);
    // The log keeps the compensation's own id (design §24).
    const stored = await store.get({ appName: 'trips', userId: 'u', id: 's' });
    expect(stored?.events.some((e) => e.message?.content.some((b) => b.type === 'tool_call' && b.id === 'toolu_1:compensate'))).toBe(true);

    expect((await runner.run({ ...key, input: 'what happened?' }).result()).output).toBe('Your trip was cancelled.');
    const messages: WireMessage[] = server.received.at(-1)?.body.messages;
    const callIds = messages.flatMap((m) => m.tool_calls?.map((c) => c.id) ?? []);
    const resultIds = messages.flatMap((m) => (m.tool_call_id === undefined ? [] : [m.tool_call_id]));
    expect(callIds).toHaveLength(3); // flightBooking, pay, the compensation
    for (const id of [...callIds, ...resultIds]) expect(id).toMatch(SAFE);
    expect(new Set(callIds).size).toBe(3);
    expect([...resultIds].sort()).toEqual([...callIds].sort()); // every call answered, under the id it was sent with
    const compensation = callIds.find((id) => id !== 'toolu_1' && id !== 'toolu_2') as string;
    expect(compensation).toMatch(/^toolu_1_compensate_[0-9a-f]{12}$/);
    // The result directly follows its call, with the same (mapped) id.
    const at = messages.findIndex((m) => m.tool_calls?.some((c) => c.id === compensation));
    expect(messages[at + 1]).toMatchObject({ role: 'tool', tool_call_id: compensation });
  });
});
