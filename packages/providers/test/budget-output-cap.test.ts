import { ReActAgent, Runner } from '@replan/core';
import { describe, expect, it } from 'vitest';
import { OpenAIChatModel } from '../src/index.js';
import { useFakeServer } from './support/fake-server.js';
import { completion } from './support/payloads.js';

const server = useFakeServer();

describe("a run's token budget on the wire", () => {
  it('the output cap the budget sets reaches the server as max_completion_tokens; a model default above it is replaced', async () => {
    // The model's own default (2000) is more than the run has left: the budget's cap wins.
    const model = new OpenAIChatModel({
      model: 'gpt-4o-mini',
      baseURL: server.baseURL,
      apiKey: 'k',
      maxRetries: 0,
      profile: 'openai',
      settings: { maxTokens: 2000 },
    });
    server.reply({ json: completion({ content: 'done' }) });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model, instruction: 'Answer briefly.' }), appName: 'x' });
    const r = await runner.run({ userId: 'u', input: 'hello', limits: { maxTokens: 500 } }).result();
    expect(r.status).toBe('completed');
    const cap = server.last.max_completion_tokens as number;
    expect(cap).toBeGreaterThan(400); // 500 less the request's few estimated tokens
    expect(cap).toBeLessThan(500);
  });

  it('without a budget, the model default goes out unchanged', async () => {
    const model = new OpenAIChatModel({
      model: 'gpt-4o-mini',
      baseURL: server.baseURL,
      apiKey: 'k',
      maxRetries: 0,
      profile: 'openai',
      settings: { maxTokens: 2000 },
    });
    server.reply({ json: completion({ content: 'done' }) });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model }), appName: 'x' });
    await runner.run({ userId: 'u', input: 'hello' }).result();
    expect(server.last.max_completion_tokens).toBe(2000);
  });
});
