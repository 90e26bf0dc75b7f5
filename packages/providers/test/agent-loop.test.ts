import { ReActAgent, Runner, tool } from '@replan/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OpenAIChatModel } from '../src/index.js';
import { useFakeServer } from './support/fake-server.js';
import { chunk, usageChunk } from './support/payloads.js';

const server = useFakeServer();

const weather = tool({
  name: 'get_weather',
  description: 'Weather of a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, temp: 21 }),
});

describe('a ReAct run through OpenAIChatModel', () => {
  for (const stream of [true, false])
    it(`keeps Anthropic thinking signatures across the tool loop (${stream ? 'streaming' : 'not streaming'})`, async () => {
      const thinking = { type: 'thinking', thinking: 'Need the weather.', signature: 'sig-1' };
      const call = { id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } };
      server.reply(
        stream
          ? {
              sse: [
                chunk({ role: 'assistant', reasoning_content: 'Need the weather.', thinking_blocks: [{ ...thinking, signature: null }] }),
                chunk({ thinking_blocks: [{ type: 'thinking', thinking: '', signature: 'sig-1' }] }),
                chunk({ tool_calls: [{ index: 0, ...call }] }),
                chunk({}, 'tool_calls'),
                usageChunk({ prompt_tokens: 10, completion_tokens: 5 }),
              ],
            }
          : {
              json: {
                id: 'x',
                object: 'chat.completion',
                choices: [
                  {
                    index: 0,
                    message: { role: 'assistant', content: null, thinking_blocks: [thinking], tool_calls: [call] },
                    finish_reason: 'tool_calls',
                  },
                ],
                usage: { prompt_tokens: 10, completion_tokens: 5 },
              },
            },
        stream
          ? {
              sse: [
                chunk({ role: 'assistant', content: 'It is 21°C in Paris.' }),
                chunk({}, 'stop'),
                usageChunk({ prompt_tokens: 20, completion_tokens: 7 }),
              ],
            }
          : {
              json: {
                id: 'y',
                object: 'chat.completion',
                choices: [{ index: 0, message: { role: 'assistant', content: 'It is 21°C in Paris.' }, finish_reason: 'stop' }],
                usage: { prompt_tokens: 20, completion_tokens: 7 },
              },
            },
      );
      const model = new OpenAIChatModel({ model: 'claude-sonnet-4-5', baseURL: server.baseURL, apiKey: 'k', maxRetries: 0 });
      const agent = new ReActAgent({ name: 'assistant', model, tools: [weather], instruction: 'Use tools.' });
      const run = new Runner({ agent, appName: 'providers-test' }).run({ userId: 'u', input: 'Weather in Paris?', stream });
      const partials: string[] = [];
      for await (const event of run) if (event.partial) partials.push(JSON.stringify(event.message?.content));
      const result = await run.result();
      expect(result.status).toBe('completed');
      expect(result.output).toBe('It is 21°C in Paris.');
      expect(result.usage).toMatchObject({ inputTokens: 30, outputTokens: 12 });
      if (stream) expect(partials.join('')).toContain('Need the weather.');

      const second = server.received.at(-1)?.body;
      const assistant = second.messages.find((m: { role: string }) => m.role === 'assistant');
      expect(assistant.thinking_blocks).toEqual([thinking]);
      expect(assistant.tool_calls[0].id).toBe('toolu_1');
      expect(second.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'toolu_1', content: '{"city":"Paris","temp":21}' });
    });
});
