import { getEventListeners } from 'node:events';
import type { ModelResponse } from '@replan/core';
import { ModelError, systemMessage, toolMessage, userMessage } from '@replan/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OpenAIResponsesModel } from '../src/index.js';
import { useFakeServer, type NamedEvent } from './support/fake-server.js';
import { bothWays, collect, textDeltas } from './support/run.js';

const server = useFakeServer();

const model = (extra: Partial<ConstructorParameters<typeof OpenAIResponsesModel>[0]> = {}) =>
  new OpenAIResponsesModel({ model: 'o4-mini', baseURL: server.baseURL, apiKey: 'k', maxRetries: 0, ...extra });

const reasoningItem = {
  id: 'rs_1',
  type: 'reasoning',
  summary: [
    { type: 'summary_text', text: '**Plan** check the weather' },
    { type: 'summary_text', text: 'then answer' },
  ],
  encrypted_content: 'gAAAAABo-encrypted==',
};
const callItem = {
  id: 'fc_1',
  type: 'function_call',
  status: 'completed',
  arguments: '{"city":"Paris"}',
  call_id: 'call_1',
  name: 'get_weather',
};
const usage = {
  input_tokens: 50,
  input_tokens_details: { cached_tokens: 10 },
  output_tokens: 30,
  output_tokens_details: { reasoning_tokens: 20 },
  total_tokens: 80,
};

const response = (output: unknown[], extra: Record<string, unknown> = {}) => ({
  id: 'resp_1',
  object: 'response',
  created_at: 1,
  status: 'completed',
  model: 'o4-mini',
  output,
  usage,
  error: null,
  incomplete_details: null,
  ...extra,
});

const ev = (type: string, data: Record<string, unknown>): NamedEvent => ({ event: type, data: { type, ...data } });

/** The events a streamed response with a reasoning item and a function call sends. */
function streamOf(output: Record<string, unknown>[], final: Record<string, unknown>): NamedEvent[] {
  const events: NamedEvent[] = [ev('response.created', { response: { ...final, status: 'in_progress', output: [] } })];
  output.forEach((item, output_index) => {
    if (item.type === 'reasoning') {
      events.push(ev('response.output_item.added', { output_index, item: { ...item, summary: [], encrypted_content: null } }));
      for (const part of item.summary as { text: string }[]) {
        events.push(ev('response.reasoning_summary_text.delta', { item_id: item.id, output_index, delta: part.text.slice(0, 5) }));
        events.push(ev('response.reasoning_summary_text.delta', { item_id: item.id, output_index, delta: part.text.slice(5) }));
      }
    } else if (item.type === 'function_call') {
      events.push(ev('response.output_item.added', { output_index, item: { ...item, arguments: '' } }));
      const args = item.arguments as string;
      events.push(ev('response.function_call_arguments.delta', { item_id: item.id, output_index, delta: args.slice(0, 6) }));
      events.push(ev('response.function_call_arguments.delta', { item_id: item.id, output_index, delta: args.slice(6) }));
    } else if (item.type === 'message') {
      events.push(ev('response.output_item.added', { output_index, item: { ...item, content: [] } }));
      for (const part of item.content as { text: string }[])
        events.push(ev('response.output_text.delta', { item_id: item.id, output_index, delta: part.text }));
    }
    events.push(ev('response.output_item.done', { output_index, item }));
  });
  events.push(ev('response.completed', { response: final }));
  return events;
}

async function nextTurn(m: OpenAIResponsesModel, answer: ModelResponse): Promise<any> {
  const calls = answer.message.content.filter((b) => b.type === 'tool_call') as { id: string }[];
  server.reply({
    json: response([
      {
        id: 'msg_9',
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: '21°C', annotations: [] }],
      },
    ]),
  });
  await m.generate({
    messages: [
      systemMessage('Be brief.'),
      userMessage('weather?'),
      answer.message,
      ...(calls.length
        ? [toolMessage(calls.map((c) => ({ type: 'tool_result' as const, toolCallId: c.id, name: 'get_weather', output: { temp: 21 } })))]
        : []),
    ],
  });
  return server.last;
}

describe('OpenAIResponsesModel', () => {
  it('keeps reasoning items (summary + encrypted_content) as reasoning blocks and function calls as tool calls, both ways', async () => {
    const final = response([reasoningItem, callItem]);
    const { streamed, parts } = await bothWays(server, model(), {
      sse: { sse: streamOf([reasoningItem, callItem], final), done: false },
      json: { json: final },
    });
    expect(streamed.message.content).toEqual([
      {
        type: 'reasoning',
        reasoning: '**Plan** check the weather\n\nthen answer',
        data: 'gAAAAABo-encrypted==',
        provider: 'openai',
        providerData: { item: reasoningItem, following: [{ type: 'function_call', id: 'fc_1', call_id: 'call_1' }] },
      },
      { type: 'tool_call', id: 'call_1', name: 'get_weather', args: { city: 'Paris' } },
    ]);
    expect(streamed.finishReason).toBe('tool_calls');
    expect(streamed.usage).toEqual({ inputTokens: 50, outputTokens: 30, reasoningTokens: 20, cachedTokens: 10 });
    expect(textDeltas(parts, 'reasoning-delta')).toBe('**Plan** check the weatherthen answer');
    const toolDeltas = parts.filter((p) => p.type === 'tool-call-delta');
    expect(toolDeltas[0]).toEqual({ type: 'tool-call-delta', index: 0, id: 'call_1', name: 'get_weather', argsDelta: '' });
    expect(toolDeltas.map((d) => d.argsDelta).join('')).toBe('{"city":"Paris"}');
    expect(server.received[0]?.path).toBe('/v1/responses');
    expect(server.received[0]?.body).toMatchObject({
      model: 'o4-mini',
      store: false,
      include: ['reasoning.encrypted_content'],
      stream: true,
    });
  });

  it('sends reasoning back statelessly: the item with encrypted_content, then the call with its paired id, then the output', async () => {
    const m = model();
    server.reply({ json: response([reasoningItem, callItem]) });
    const answer = await m.generate({ messages: [userMessage('weather?')] });
    const sent = await nextTurn(m, answer);
    expect(sent.store).toBe(false);
    expect(sent.input).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'weather?' },
      { type: 'reasoning', id: 'rs_1', summary: reasoningItem.summary, encrypted_content: 'gAAAAABo-encrypted==' },
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', id: 'fc_1' },
      { type: 'function_call_output', call_id: 'call_1', output: '{"temp":21}' },
    ]);
  });

  it('pairs a reasoning item with the message after it; encrypted-only reasoning is a redacted block', async () => {
    const encryptedOnly = { id: 'rs_2', type: 'reasoning', summary: [], encrypted_content: 'gAAAA-only==' };
    const message = {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'Hello!', annotations: [] }],
    };
    const final = response([encryptedOnly, message]);
    const m = model();
    const { streamed, parts } = await bothWays(server, m, {
      sse: { sse: streamOf([encryptedOnly, message], final), done: false },
      json: { json: final },
    });
    expect(streamed.message.content).toEqual([
      {
        type: 'reasoning',
        reasoning: '',
        data: 'gAAAA-only==',
        redacted: true,
        provider: 'openai',
        providerData: { item: encryptedOnly, following: [{ type: 'message', id: 'msg_1' }] },
      },
      { type: 'text', text: 'Hello!' },
    ]);
    expect(streamed.finishReason).toBe('stop');
    expect(textDeltas(parts, 'text-delta')).toBe('Hello!');
    const sent = await nextTurn(m, streamed);
    expect(sent.input.slice(2)).toEqual([
      { type: 'reasoning', id: 'rs_2', summary: [], encrypted_content: 'gAAAA-only==' },
      {
        type: 'message',
        role: 'assistant',
        id: 'msg_1',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Hello!', annotations: [] }],
      },
    ]);
  });

  it('sends no item ids without their reasoning, and no foreign reasoning', async () => {
    const m = model();
    await nextTurn(m, {
      message: {
        role: 'assistant',
        content: [
          { type: 'reasoning', reasoning: 'x', signature: 's', provider: 'anthropic' },
          { type: 'text', text: 'Let me check.' },
          { type: 'tool_call', id: 'call_9', name: 'get_weather', args: { city: 'Paris' } },
        ],
      },
      finishReason: 'tool_calls',
    });
    expect(server.last.input.slice(2)).toEqual([
      { role: 'assistant', content: 'Let me check.' },
      { type: 'function_call', call_id: 'call_9', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call_output', call_id: 'call_9', output: '{"temp":21}' },
    ]);
  });

  it('maps tools, tool choice, structured output and settings', async () => {
    server.reply({
      json: response([
        {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: '{"n":1,"note":null}', annotations: [] }],
        },
      ]),
    });
    const result = await model({ settings: { reasoning: { effort: 'high' } } }).generate({
      messages: [userMessage('x')],
      tools: [
        {
          name: 'get_weather',
          description: 'Weather',
          parameters: { $schema: 'x', type: 'object', properties: { city: { type: 'string' } } },
        },
      ],
      toolChoice: { name: 'get_weather' },
      responseFormat: {
        name: 'out',
        schema: z.toJSONSchema(z.object({ n: z.number(), note: z.string().optional() })) as Record<string, unknown>,
      },
      settings: { maxTokens: 500, temperature: 1 },
    });
    expect(server.last).toMatchObject({
      tools: [
        {
          type: 'function',
          name: 'get_weather',
          description: 'Weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
          strict: false,
        },
      ],
      tool_choice: { type: 'function', name: 'get_weather' },
      text: {
        format: { type: 'json_schema', name: 'out', strict: true, schema: { required: ['n', 'note'], additionalProperties: false } },
      },
      reasoning: { effort: 'high', summary: 'auto' },
      max_output_tokens: 500,
      temperature: 1,
    });
    expect(server.last.tools[0].parameters.$schema).toBeUndefined();
    expect(result.message.content).toEqual([{ type: 'text', text: '{"n":1}' }]);
  });

  it('maps refusals and incomplete responses', async () => {
    server.reply({
      json: response([{ id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'refusal', refusal: "I can't help." }] }]),
    });
    expect((await model().generate({ messages: [userMessage('x')] })).finishReason).toBe('refusal');
    server.reply({
      json: response(
        [{ id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'cut', annotations: [] }] }],
        { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
      ),
    });
    expect((await model().generate({ messages: [userMessage('x')] })).finishReason).toBe('length');
  });

  it('an error event midway is a typed error with the partial output', async () => {
    const events = streamOf([reasoningItem], response([reasoningItem])).slice(0, -1);
    server.reply({
      sse: [...events, ev('error', { code: 'rate_limit_exceeded', message: 'Rate limit reached for o4-mini', param: null })],
      done: false,
    });
    let error: ModelError | undefined;
    try {
      await collect(model(), { messages: [userMessage('x')] });
    } catch (e) {
      error = e as ModelError;
    }
    expect(error).toBeInstanceOf(ModelError);
    expect(error?.kind).toBe('rate_limit');
    expect(error?.providerMessage).toBe('Rate limit reached for o4-mini');
    expect(error?.partial?.content[0]).toMatchObject({ type: 'reasoning', data: 'gAAAAABo-encrypted==' });
  });

  it('response.failed, a stream without response.completed, a stall and an HTTP 400 are typed errors', async () => {
    server.reply({
      sse: [
        ev('response.failed', {
          response: response([], {
            status: 'failed',
            error: { code: 'server_error', message: 'The server had an error processing your request.' },
          }),
        }),
      ],
      done: false,
    });
    await expect(collect(model(), { messages: [userMessage('x')] })).rejects.toThrow('The server had an error processing your request.');

    server.reply({ sse: [ev('response.created', { response: response([]) })], done: false });
    await expect(collect(model(), { messages: [userMessage('x')] })).rejects.toThrow(/before response.completed/);

    server.reply({ sse: [ev('response.created', { response: response([]) })], stall: true });
    await expect(collect(model({ idleTimeoutMs: 100 }), { messages: [userMessage('x')] })).rejects.toMatchObject({ kind: 'timeout' });

    server.reply({
      json: {
        error: {
          message: 'Encrypted content is not supported with this model.',
          type: 'invalid_request_error',
          param: 'include',
          code: null,
        },
      },
      status: 400,
    });
    const failure = model().generate({ messages: [userMessage('x')] });
    await expect(failure).rejects.toMatchObject({ kind: 'invalid_request', status: 400 });
  });

  it('can leave out include and summaries', async () => {
    server.reply({ json: response([]) });
    await model({ includeEncryptedReasoning: false }).generate({ messages: [userMessage('x')] });
    expect(server.last.include).toBeUndefined();
    expect(server.last.reasoning).toBeUndefined();
  });
});

describe("the run's signal", () => {
  it('keeps no listener per call: twelve calls, generated and streamed, leave it as they found it', async () => {
    const controller = new AbortController();
    const message = { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'ok' }] };
    for (let i = 0; i < 6; i++) {
      server.reply({ json: response([message]) });
      await model().generate({ messages: [userMessage('x')] }, { signal: controller.signal });
      server.reply({ sse: streamOf([message], response([message])) });
      await collect(model(), { messages: [userMessage('x')] }, controller.signal);
    }
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
