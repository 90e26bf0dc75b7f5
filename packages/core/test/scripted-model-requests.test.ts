import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ReActAgent, Runner, tool, userMessage } from '@replan/core';
import type { ChatModel, Message, ModelRequest } from '@replan/core';
import { ScriptedModel, callTools, reply } from '@replan/core/testing';

const lookup = tool({
  name: 'lookup',
  description: 'Look a word up',
  parameters: z.object({ word: z.string() }),
  execute: ({ word }) => `${word}: a greeting`,
});

describe('what a model was sent is what it was sent then', () => {
  it('ScriptedModel.requests holds each request as sent, not the agent loop’s growing list', async () => {
    const model = new ScriptedModel({ responses: [callTools({ name: 'lookup', args: { word: 'hi' }, id: 'c1' }), 'A greeting.'] });
    const runner = new Runner({ agent: new ReActAgent({ name: 'agent', model, tools: [lookup] }), appName: 'requests' });
    const result = await runner.run({ userId: 'u', input: 'what is hi?' }).result();
    expect(result.status).toBe('completed');
    expect(model.requests.map((r) => r.messages.length)).toEqual([1, 3]);
    expect(model.requests[0]?.messages[0]).toMatchObject({ role: 'user' });
  });

  it('ScriptedModel keeps a copy of the request: a caller changing its list afterwards changes nothing recorded', async () => {
    const model = new ScriptedModel({ responses: ['one'] });
    const messages: Message[] = [userMessage('first')];
    await model.generate({ messages });
    messages.push(reply('later'));
    expect(model.requests[0]?.messages).toHaveLength(1);
  });

  it('a model that keeps the request it was given sees it unchanged after the agent goes on', async () => {
    const kept: ModelRequest[] = [];
    const inner = new ScriptedModel({ responses: [callTools({ name: 'lookup', args: { word: 'hi' }, id: 'c1' }), 'A greeting.'] });
    const model: ChatModel = {
      id: 'keeper',
      generate: (request, opts) => {
        kept.push(request);
        return inner.generate(request, opts);
      },
      stream: (request, opts) => {
        kept.push(request);
        return inner.stream(request, opts);
      },
    };
    const runner = new Runner({ agent: new ReActAgent({ name: 'agent', model, tools: [lookup] }), appName: 'requests' });
    await runner.run({ userId: 'u', input: 'what is hi?' }).result();
    expect(kept.map((r) => r.messages.length)).toEqual([1, 3]);
  });
});
