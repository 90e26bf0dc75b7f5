import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { aiSdkModel } from '@replan/ai-sdk';
import { ReActAgent, Runner, tool, userMessage } from '@replan/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useFakeServer } from '../../providers/test/support/fake-server.js';
import { chunk, completion, USAGE, usageChunk } from '../../providers/test/support/payloads.js';

// A local Chat Completions server; @ai-sdk/openai-compatible is the client.
const server = useFakeServer();
const local = () =>
  createOpenAICompatible({ name: 'local', baseURL: server.baseURL, apiKey: 'k', includeUsage: true, supportsStructuredOutputs: true });

const weather = tool({
  name: 'get_weather',
  description: 'Weather of a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, temp: 21 }),
});

describe('aiSdkModel over @ai-sdk/openai-compatible against a local Chat Completions server', () => {
  it('streams reasoning, a tool call and the answer through a ReAct run; usage has reasoning and cached tokens', async () => {
    server.reply(
      {
        sse: [
          chunk({ role: 'assistant', reasoning_content: 'Need the ' }),
          chunk({ reasoning_content: 'weather.' }),
          chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
          chunk({}, 'tool_calls'),
          usageChunk(USAGE),
        ],
      },
      {
        sse: [chunk({ role: 'assistant', content: 'It is 21°C ' }), chunk({ content: 'in Paris.' }), chunk({}, 'stop'), usageChunk(USAGE)],
      },
    );
    const model = aiSdkModel(local()('qwen3'), { settings: { reasoning: { effort: 'low' } } });
    const agent = new ReActAgent({ name: 'assistant', model, tools: [weather], instruction: 'Use tools.' });
    const run = new Runner({ agent, appName: 'ai-sdk-test' }).run({ userId: 'u', input: 'Weather in Paris?', stream: true });
    let streamedReasoning = '';
    for await (const event of run)
      if (event.partial)
        for (const block of event.message?.content ?? []) if (block.type === 'reasoning') streamedReasoning += block.reasoning;
    const result = await run.result();
    expect(result.status).toBe('completed');
    expect(result.output).toBe('It is 21°C in Paris.');
    expect(streamedReasoning).toBe('Need the weather.');
    expect(result.usage).toMatchObject({ inputTokens: 240, outputTokens: 160, reasoningTokens: 100, cachedTokens: 128 });

    const [first, second] = server.received.map((r) => r.body);
    expect(first).toMatchObject({ model: 'qwen3', stream: true, reasoning_effort: 'low' });
    expect(first.tools[0]).toMatchObject({ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } });
    const assistant = second.messages.find((m: { role: string }) => m.role === 'assistant');
    expect(assistant).toMatchObject({
      reasoning_content: 'Need the weather.',
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
    });
    expect(second.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_1', content: '{"city":"Paris","temp":21}' });
  });

  it('forces a tool for a planner and asks for a JSON Schema answer', async () => {
    const plan = {
      name: 'plan',
      description: 'Write the plan',
      parameters: { type: 'object', properties: { steps: { type: 'array', items: { type: 'string' } } } },
    };
    server.reply(
      {
        json: completion(
          { content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'plan', arguments: '{"steps":["a"]}' } }] },
          'tool_calls',
        ),
      },
      { json: completion({ content: '{"n":3}' }) },
    );
    const model = aiSdkModel(local()('m'));
    const planned = await model.generate({ messages: [userMessage('plan')], tools: [plan], toolChoice: { name: 'plan' } });
    expect(planned.message.content).toEqual([{ type: 'tool_call', id: 'c', name: 'plan', args: { steps: ['a'] } }]);
    expect(server.received[0]?.body.tool_choice).toEqual({ type: 'function', function: { name: 'plan' } });

    const schema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'], additionalProperties: false };
    const answer = await model.generate({ messages: [userMessage('count')], responseFormat: { name: 'count', schema } });
    expect(answer.message.content).toEqual([{ type: 'text', text: '{"n":3}' }]);
    expect(server.received[1]?.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'count', schema } });
  });

  it('maps context_length_exceeded to context_length and another 400 to invalid_request', async () => {
    server.reply(
      {
        status: 400,
        json: {
          error: {
            message: "This model's maximum context length is 8192 tokens.",
            type: 'invalid_request_error',
            code: 'context_length_exceeded',
          },
        },
      },
      { status: 400, json: { error: { message: 'tools[0].function.name is invalid', type: 'invalid_request_error' } } },
    );
    const model = aiSdkModel(local()('m'));
    await expect(model.generate({ messages: [userMessage('long')] })).rejects.toMatchObject({ kind: 'context_length' });
    const invalid = await model.generate({ messages: [userMessage('x')] }).catch((e: unknown) => e);
    expect(invalid).toMatchObject({ kind: 'invalid_request', status: 400, providerMessage: 'tools[0].function.name is invalid' });
  });
});
