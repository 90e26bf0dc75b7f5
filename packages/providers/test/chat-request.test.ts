import type { Message } from '@replan/core';
import { assistantMessage, ConfigurationError, systemMessage, tool, userMessage } from '@replan/core';
import { toolSpecOf } from '@replan/core/agent-kit';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OpenAIChatModel, type ProviderProfileName } from '../src/index.js';
import { useFakeServer } from './support/fake-server.js';
import { chunk, completion } from './support/payloads.js';
import { bothWays } from './support/run.js';

const server = useFakeServer();

const model = (extra: Partial<ConstructorParameters<typeof OpenAIChatModel>[0]> = {}) =>
  new OpenAIChatModel({ model: 'gpt-4o-mini', baseURL: server.baseURL, apiKey: 'secret-key', maxRetries: 0, ...extra });

const search = tool({
  name: 'search',
  description: 'Search the web',
  parameters: z.object({ query: z.string(), limit: z.number().optional() }),
  execute: () => 'r',
});

describe('messages', () => {
  it('maps system, user, assistant (text + tool calls) and tool messages', async () => {
    const messages: Message[] = [
      systemMessage('Be brief.'),
      userMessage('Find cats'),
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Searching.' },
          { type: 'tool_call', id: 'call_AbC/+=', name: 'search', args: { query: 'cats' } },
          { type: 'tool_call', id: 'call_2', name: 'search', args: {}, rawArgs: '{bad', argsError: 'Unexpected token' },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool_result', toolCallId: 'call_AbC/+=', name: 'search', output: { hits: 3 } },
          { type: 'tool_result', toolCallId: 'call_2', name: 'search', output: 'Error: bad JSON', isError: true },
        ],
      },
      assistantMessage('Found 3.'),
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Line 1' },
          { type: 'text', text: 'Line 2' },
        ],
      },
    ];
    server.reply({ json: completion({ content: 'ok' }) });
    await model().generate({ messages });
    const sent = server.last;
    expect(server.received[0]?.headers.authorization).toBe('Bearer secret-key');
    expect(server.received[0]?.path).toBe('/v1/chat/completions');
    expect(sent.model).toBe('gpt-4o-mini');
    expect(sent.stream).toBeUndefined();
    expect(sent.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Find cats' },
      {
        role: 'assistant',
        content: 'Searching.',
        tool_calls: [
          { id: 'call_AbC/+=', type: 'function', function: { name: 'search', arguments: '{"query":"cats"}' } },
          { id: 'call_2', type: 'function', function: { name: 'search', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_AbC/+=', content: '{"hits":3}' },
      { role: 'tool', tool_call_id: 'call_2', content: 'Error: bad JSON' },
      { role: 'assistant', content: 'Found 3.' },
      { role: 'user', content: 'Line 1\n\nLine 2' },
    ]);
  });

  it('sends tools (without $schema) and every tool choice; no tool_choice without tools', async () => {
    const spec = toolSpecOf(search);
    const choices = [
      ['auto', 'auto'],
      ['required', 'required'],
      ['none', 'none'],
      [{ name: 'search' }, { type: 'function', function: { name: 'search' } }],
    ] as const;
    for (const [choice, expected] of choices) {
      server.reply({ json: completion({ content: 'ok' }) });
      await model().generate({ messages: [userMessage('x')], tools: [spec], toolChoice: choice });
      expect(server.last.tool_choice).toEqual(expected);
    }
    expect(server.last.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'search',
          description: 'Search the web',
          parameters: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'number' } }, required: ['query'] },
        },
      },
    ]);
    server.reply({ json: completion({ content: 'ok' }) });
    await model().generate({ messages: [userMessage('x')], toolChoice: 'required' });
    expect(server.last.tools).toBeUndefined();
    expect(server.last.tool_choice).toBeUndefined();
  });
});

describe('structured output', () => {
  const Answer = z.object({ city: z.string(), country: z.string().optional(), population: z.number().nullable() });

  it('sends a strict json_schema made from zod (as core sends it) and removes forced nulls from the answer, both ways', async () => {
    const schema = z.toJSONSchema(Answer, { io: 'output' }) as Record<string, unknown>;
    const responseFormat = { name: 'agent output', schema, strict: true };
    const text = '{"city":"Paris","country":null,"population":null}';
    const { streamed } = await bothWays(
      server,
      model(),
      {
        sse: { sse: [chunk({ content: text.slice(0, 10) }), chunk({ content: text.slice(10) }), chunk({}, 'stop')] },
        json: { json: completion({ content: text }) },
      },
      { messages: [userMessage('Where?')], responseFormat },
    );
    expect(server.last.response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'agent_output',
        strict: true,
        schema: {
          type: 'object',
          properties: {
            city: { type: 'string' },
            country: { anyOf: [{ type: 'string' }, { type: 'null' }] },
            population: { type: ['number', 'null'] },
          },
          required: ['city', 'country', 'population'],
          additionalProperties: false,
        },
      },
    });
    const answer = JSON.parse((streamed.message.content[0] as { text: string }).text);
    expect(answer).toEqual({ city: 'Paris', population: null });
    expect(Answer.parse(answer)).toEqual(answer);
  });

  it('accepts a zod schema directly', async () => {
    server.reply({ json: completion({ content: '{"city":"Rome","country":"IT","population":1}' }) });
    await model().generate({ messages: [userMessage('x')], responseFormat: { name: 'a', schema: Answer as never } });
    expect(server.last.response_format.json_schema.schema.required).toEqual(['city', 'country', 'population']);
  });

  it('rejects what strict mode cannot express before sending anything', async () => {
    for (const schema of [
      z.object({ m: z.record(z.string(), z.number()) }),
      z.object({ t: z.tuple([z.string()]) }),
      z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]),
      {},
    ]) {
      const schemaJson =
        '_zod' in (schema as object)
          ? (z.toJSONSchema(schema as z.ZodType) as Record<string, unknown>)
          : (schema as Record<string, unknown>);
      await expect(model().generate({ messages: [userMessage('x')], responseFormat: { name: 'out', schema: schemaJson } })).rejects.toThrow(
        ConfigurationError,
      );
      const stream = model().stream({ messages: [userMessage('x')], responseFormat: { name: 'out', schema: schemaJson } });
      await expect(stream[Symbol.asyncIterator]().next()).rejects.toThrow(/cannot be used for strict structured output/);
    }
    expect(server.received).toHaveLength(0);
  });

  it('sends a non-strict schema as given (but never an empty one)', async () => {
    const schema = { type: 'object', properties: { m: { type: 'object', additionalProperties: { type: 'number' } } } };
    server.reply({ json: completion({ content: '{}' }) });
    await model().generate({ messages: [userMessage('x')], responseFormat: { name: 'loose', schema, strict: false } });
    expect(server.last.response_format.json_schema).toEqual({ name: 'loose', schema, strict: false });
    await expect(
      model().generate({ messages: [userMessage('x')], responseFormat: { name: 'e', schema: {}, strict: false } }),
    ).rejects.toThrow(/empty/);
  });
});

describe('settings per profile', () => {
  const cases: [ProviderProfileName, Record<string, unknown>][] = [
    ['openai', { max_completion_tokens: 100, reasoning_effort: 'low' }],
    ['plain', { max_tokens: 100, reasoning_effort: 'low' }],
    ['openrouter', { max_tokens: 100, reasoning: { effort: 'low' } }],
    ['deepseek', { max_tokens: 100, thinking: { type: 'enabled' } }],
    ['anthropic', { max_tokens: 100, reasoning_effort: 'low' }],
    ['gemini', { max_tokens: 100, reasoning_effort: 'low' }],
  ];
  for (const [profile, expected] of cases)
    it(`${profile}: ${JSON.stringify(expected)}`, async () => {
      server.reply({ json: completion({ content: 'ok' }) });
      await model({ profile }).generate({ messages: [userMessage('x')], settings: { maxTokens: 100, reasoning: { effort: 'low' } } });
      expect(server.last).toMatchObject(expected);
    });

  it('budgets: Anthropic and Gemini through a proxy get `thinking`, OpenRouter `reasoning.max_tokens`', async () => {
    for (const [profile, expected] of [
      ['anthropic', { thinking: { type: 'enabled', budget_tokens: 2048 } }],
      ['gemini', { thinking: { type: 'enabled', budget_tokens: 2048 } }],
      ['openrouter', { reasoning: { max_tokens: 2048 } }],
    ] as const) {
      server.reply({ json: completion({ content: 'ok' }) });
      await model({ profile }).generate({ messages: [userMessage('x')], settings: { reasoning: { budgetTokens: 2048 } } });
      expect(server.last).toMatchObject(expected);
    }
  });

  it('merges model defaults with request settings; extra fields pass through', async () => {
    server.reply({ json: completion({ content: 'ok' }) });
    await model({ settings: { temperature: 0.2, topP: 0.9, extra: { top_k: 20, seed: 1 } } }).generate({
      messages: [userMessage('x')],
      settings: { temperature: 0.7, extra: { seed: 7 } },
    });
    expect(server.last).toMatchObject({ temperature: 0.7, top_p: 0.9, top_k: 20, seed: 7 });
  });
});
