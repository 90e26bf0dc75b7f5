import { createAnthropic } from '@ai-sdk/anthropic';
import { aiSdkModel } from '@replan/ai-sdk';
import { ReActAgent, Runner } from '@replan/core';
import { describe, expect, it } from 'vitest';
import { type Received, type Reply, useFakeServer } from '../../providers/test/support/fake-server.js';
import { flightBooking, payTool } from '../../core/test/support/bookings.js';

// A local server that speaks Anthropic's Messages API and, like Anthropic, refuses a tool id outside ^[a-zA-Z0-9_-]+$.
const server = useFakeServer();
const SAFE = /^[a-zA-Z0-9_-]+$/;

const message = (content: unknown[], stop_reason: string) => ({
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5',
  content,
  stop_reason,
  stop_sequence: null,
  usage: { input_tokens: 20, output_tokens: 9 },
});

type Block = { type: string; id?: string; tool_use_id?: string };
const idsOf = (request: Received): string[] =>
  (request.body.messages as { content: Block[] | string }[]).flatMap((m) =>
    typeof m.content === 'string'
      ? []
      : m.content.flatMap((b) => (b.type === 'tool_use' ? [b.id as string] : b.type === 'tool_result' ? [b.tool_use_id as string] : [])),
  );

/** Answers like Anthropic: a 400 when an id is not one it takes, else `reply`. */
const strict =
  (reply: Reply): Reply =>
  (request) => {
    const bad = idsOf(request).filter((id) => !SAFE.test(id));
    if (bad.length)
      return {
        status: 400,
        json: {
          type: 'error',
          error: { type: 'invalid_request_error', message: `tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$' (${bad[0]})` },
        },
      };
    return reply;
  };

describe('aiSdkModel (Anthropic) and a session with a compensation', () => {
  it('the next request is accepted: the compensation <id>:compensate goes with a safe id, the same in its tool_use and tool_result', async () => {
    server.reply(
      strict({
        json: message(
          [
            { type: 'tool_use', id: 'toolu_01', name: 'book_flight', input: { what: 'LHR' } },
            { type: 'tool_use', id: 'toolu_02', name: 'pay', input: {} },
          ],
          'tool_use',
        ),
      }),
      strict({ json: message([{ type: 'text', text: 'Your trip was cancelled.' }], 'end_turn') }),
    );
    const model = aiSdkModel(createAnthropic({ baseURL: server.baseURL, apiKey: 'test-key' })('claude-sonnet-4-5'), { maxRetries: 0 });
    const runner = new Runner({ agent: new ReActAgent({ name: 'travel', model, tools: [flightBooking, payTool] }), appName: 'trips' });
    const key = { userId: 'u', sessionId: 's' };
    expect((await runner.run({ ...key, input: 'book a trip' }).result()).status).toBe('interrupted');
    expect((await runner.cancel({ ...key, compensate: true }).result()).compensation?.undone).toEqual([
      { callId: 'toolu_01', tool: 'book_flight' },
    ]);

    const next = await runner.run({ ...key, input: 'what happened?' }).result();
    expect(next.error?.message).toBeUndefined();
    expect(next.output).toBe('Your trip was cancelled.');
    const ids = idsOf(server.received.at(-1) as Received);
    const compensation = ids.filter((id) => id.startsWith('toolu_01_compensate_'));
    expect(compensation).toHaveLength(2); // its tool_use and its tool_result
    expect(compensation[0]).toBe(compensation[1]);
  });
});
