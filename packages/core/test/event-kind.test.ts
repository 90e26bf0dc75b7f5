import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AgentEvent, eventKind, ReActAgent, Runner, SequentialAgent, tool } from '@replan/core';
import { ScriptedModel, callTools, reply } from '@replan/core/testing';
import { collect } from './support.js';

/** What a UI would print for each event: the switch narrows every case. */
function describeEvent(event: AgentEvent): string {
  const k = eventKind(event);
  switch (k.kind) {
    case 'user-message':
      return `user: ${(k.message.content[0] as { text: string }).text}`;
    case 'text-delta':
      return 'delta';
    case 'reasoning-delta':
      return `thinking: ${k.text}`;
    case 'tool-calls':
      return `calls ${k.calls.map((c) => c.name).join(',')}`;
    case 'tool-results':
      return `results ${k.results.map((r) => `${r.name}=${String(r.output)}`).join(',')}`;
    case 'answer':
      return `answer: ${k.final.text}${k.reasoning.length ? ' (with reasoning)' : ''}`;
    case 'interrupt':
      return `interrupt ${k.interrupt.id}`;
    case 'resume':
      return `resume ${Object.keys(k.values).join(',')}`;
    case 'cursor':
      return `cursor ${JSON.stringify(k.state)}`;
    case 'end':
      return `end ${k.status}`;
    case 'error':
      return `error ${k.error.name}`;
    case 'message':
      return 'message';
    case 'state':
      return 'state';
    case 'compaction':
      return `compaction through ${k.compaction.through}`;
    case 'other':
      return 'other';
  }
}

describe('eventKind', () => {
  it('classifies every event of a streamed run with tools, an interrupt and a resume', async () => {
    const ask = tool({ name: 'ask', description: '', parameters: z.object({}), execute: (_a, ctx) => ctx.interrupt<string>('which?') });
    const add = tool({ name: 'add', description: '', parameters: z.object({ a: z.number() }), execute: ({ a }) => a + 1 });
    const model = new ScriptedModel({
      responses: [
        callTools({ name: 'add', args: { a: 1 }, id: 'c1' }),
        callTools({ name: 'ask', id: 'c2' }),
        reply('Done: blue.', { type: 'reasoning', reasoning: 'the user said blue' }),
      ],
      chunkSize: 100,
    });
    const agent = new SequentialAgent({ name: 'root', subAgents: [new ReActAgent({ name: 'a', model, tools: [ask, add] })] });
    const runner = new Runner({ agent, appName: 'k' });
    const first = await collect(runner.run({ userId: 'u', sessionId: 's', input: 'go', stream: true }));
    const second = await collect(runner.resume({ userId: 'u', sessionId: 's', values: { 'c2:1': 'blue' }, stream: true }));
    expect(first.events.map(describeEvent)).toEqual([
      'user: go',
      'cursor {"index":0,"agent":"a"}',
      'calls add',
      'results add=2',
      'calls ask',
      'interrupt c2:1',
    ]);
    expect(second.events.map(describeEvent)).toEqual([
      'resume c2:1',
      'results ask=blue',
      'thinking: the user said blue',
      'delta',
      'answer: Done: blue. (with reasoning)',
      'cursor {"index":1,"done":true}',
      'end completed',
    ]);
  });

  it('classifies errors and pure state changes', () => {
    const base = { id: 'e', invocationId: 'i', author: 'a', path: 'a', timestamp: 1 };
    expect(eventKind({ ...base, error: { name: 'MaxIterationsError', message: 'm' } })).toEqual({
      kind: 'error',
      error: { name: 'MaxIterationsError', message: 'm' },
    });
    expect(eventKind({ ...base, actions: { stateAppend: { log: [1] } } })).toEqual({ kind: 'state', delta: {}, append: { log: [1] } });
    const compaction = { through: 'e1', summary: 'notes', tokensBefore: 900, tokensAfter: 200 };
    expect(eventKind({ ...base, actions: { compaction } })).toEqual({ kind: 'compaction', compaction });
    expect(eventKind(base)).toEqual({ kind: 'other' });
  });
});
