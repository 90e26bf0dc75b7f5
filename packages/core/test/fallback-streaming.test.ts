import { describe, expect, it } from 'vitest';
import { fallbackModel, type ChatModel } from '@replan/core';
import type { ModelStreamPart } from '@replan/core/agent-kit';
import { ScriptedModel } from '@replan/core/testing';
import { httpError, user } from './support/fallback-models.js';

// `fallbackModel` streaming: the next model answers only a stream that failed before its first part.

/** A model whose stream yields text deltas, then throws `error` when given; `state.closed` counts closed streams. */
function deltasThen(deltas: readonly string[], error?: Error): { model: ChatModel; state: { closed: number } } {
  const state = { closed: 0 };
  const model: ChatModel = {
    id: 'primary',
    generate: () => Promise.reject(new Error('not used')),
    async *stream() {
      try {
        for (const delta of deltas) yield { type: 'text-delta', delta };
        if (error) throw error;
      } finally {
        state.closed++;
      }
    },
  };
  return { model, state };
}

async function drain(parts: AsyncIterable<ModelStreamPart>): Promise<ModelStreamPart[]> {
  const out: ModelStreamPart[] = [];
  for await (const part of parts) out.push(part);
  return out;
}

describe('fallbackModel: streaming', () => {
  it('a stream that fails before yielding anything is answered by the next model', async () => {
    const backup = new ScriptedModel({ id: 'backup', responses: ['streamed by backup'] });
    const model = fallbackModel([new ScriptedModel({ responses: [httpError(429)] }), backup]);
    const parts = await drain(model.stream({ messages: [user('hi')] }));
    const finish = parts.at(-1);
    expect(finish?.type === 'finish' && finish.response.model).toEqual({ id: 'backup' });
    expect(
      parts
        .filter((p) => p.type === 'text-delta')
        .map((p) => (p.type === 'text-delta' ? p.delta : ''))
        .join(''),
    ).toBe('streamed by backup');
  });

  it('a stream that fails after yielding a delta throws that error: two models never write one answer', async () => {
    const failure = httpError(503);
    const { model: primary, state } = deltasThen(['half an ans'], failure);
    const backup = new ScriptedModel({ responses: ['never'] });
    const seen: ModelStreamPart[] = [];
    const drained = (async () => {
      for await (const part of fallbackModel([primary, backup]).stream({ messages: [user('hi')] })) seen.push(part);
    })();
    await expect(drained).rejects.toBe(failure);
    expect(seen).toEqual([{ type: 'text-delta', delta: 'half an ans' }]);
    expect([backup.calls, state.closed]).toEqual([0, 1]);
  });

  it("a caller that stops reading closes the answering model's stream", async () => {
    const { model: primary, state } = deltasThen(['a', 'b']);
    for await (const _ of fallbackModel([primary]).stream({ messages: [user('hi')] })) break;
    expect(state.closed).toBe(1);
  });
});
