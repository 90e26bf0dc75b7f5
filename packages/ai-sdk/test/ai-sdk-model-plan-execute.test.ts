import type { LanguageModelV3CallOptions, LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { aiSdkModel } from '@replan/ai-sdk';
import { InMemorySessionStore, Runner, tool } from '@replan/core';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generated, streamedParts, streamOf, toolNames } from './support/mock-results.js';

const weather = tool({
  name: 'get_weather',
  description: 'Weather of a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, temp: 21 }),
});

const signed = { anthropic: { signature: 'sig-step-1' } };

/** One mock language model for every role, routed by the tools offered (never by prompt wording). */
function reply(options: LanguageModelV3CallOptions): LanguageModelV3GenerateResult {
  const tools = toolNames(options);
  if (tools.includes('respond'))
    return generated([
      { type: 'tool-call', toolCallId: 'call_r', toolName: 'respond', input: JSON.stringify({ response: 'Paris: 21°C.' }) },
    ]);
  if (tools.includes('plan'))
    return generated([
      { type: 'tool-call', toolCallId: 'call_p', toolName: 'plan', input: JSON.stringify({ steps: ['Look up the weather in Paris'] }) },
    ]);
  // The executor: a signed thought and a tool call, then (with the tool's result back) the step's answer.
  if (options.prompt.at(-1)?.role !== 'tool')
    return generated(
      [
        { type: 'reasoning', text: 'I need the weather tool.', providerMetadata: signed },
        { type: 'tool-call', toolCallId: 'toolu_1', toolName: 'get_weather', input: '{"city":"Paris"}' },
      ],
      { reasoning: 7, cacheRead: 4 },
    );
  return generated([{ type: 'text', text: 'It is 21°C in Paris.' }]);
}

describe('aiSdkModel driven by MockLanguageModelV3 through a plan–execute run', () => {
  for (const stream of [false, true])
    it(`plans, runs the step's tool loop with its signature sent back, and answers (${stream ? 'doStream' : 'doGenerate'})`, async () => {
      const calls: LanguageModelV3CallOptions[] = [];
      const languageModel = new MockLanguageModelV3({
        provider: 'anthropic.messages',
        modelId: 'claude-mock',
        doGenerate: async (options) => {
          calls.push(options);
          return reply(options);
        },
        doStream: async (options) => {
          calls.push(options);
          return streamOf(streamedParts(reply(options)));
        },
      });
      const warnings: string[] = [];
      const model = aiSdkModel(languageModel, { contextWindow: 200_000, onWarning: (w) => warnings.push(w) });
      expect(model.contextWindow).toBe(200_000);
      const agent = createPlanExecuteAgent({ model, tools: [weather] });
      const runner = new Runner({ agent, appName: 'ai-sdk-test', sessionStore: new InMemorySessionStore() });
      const run = runner.run({ userId: 'u', input: 'What is the weather in Paris?', stream });
      const deltas: string[] = [];
      for await (const event of run) if (event.partial) deltas.push(JSON.stringify(event.message?.content ?? ''));
      const result = await run.result();

      expect(result.status).toBe('completed');
      expect(warnings).toEqual([]);
      expect(result.output).toBe('Paris: 21°C.');
      expect(stream ? languageModel.doStreamCalls.length : languageModel.doGenerateCalls.length).toBe(calls.length);
      if (stream) expect(deltas.join('')).toContain('I need the weather tool.');

      // The planner is forced to call `plan`.
      const planner = calls.find((c) => toolNames(c).includes('plan') && !toolNames(c).includes('respond'));
      expect(planner?.toolChoice).toEqual({ type: 'tool', toolName: 'plan' });
      expect(planner?.tools?.[0]).toMatchObject({ type: 'function', name: 'plan', inputSchema: { type: 'object' } });

      // The executor's second turn sends the signed thought back with its metadata, then the call and its JSON result.
      const second = calls.find((c) => c.prompt.at(-1)?.role === 'tool' && toolNames(c).includes('get_weather'));
      const assistant = second?.prompt.find((m) => m.role === 'assistant');
      expect(assistant?.content).toEqual([
        { type: 'reasoning', text: 'I need the weather tool.', providerOptions: signed },
        { type: 'tool-call', toolCallId: 'toolu_1', toolName: 'get_weather', input: { city: 'Paris' } },
      ]);
      expect(second?.prompt.at(-1)).toEqual({
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'toolu_1',
            toolName: 'get_weather',
            output: { type: 'json', value: { city: 'Paris', temp: 21 } },
          },
        ],
      });

      // Usage adds up every call, reasoning and cached tokens included.
      expect(result.usage).toMatchObject({
        inputTokens: 10 * calls.length,
        outputTokens: 5 * calls.length,
        reasoningTokens: 7,
        cachedTokens: 4,
      });
    });
});
