import { describe, expect, it } from 'vitest';
import {
  FallbackExhaustedError,
  ModelError,
  ReActAgent,
  Runner,
  fallbackModel,
  modelErrorOf,
  type ChatModel,
  type LifecycleInfo,
} from '@replan/core';
import { modelErrorKindOf } from '@replan/core/agent-kit';
import { ScriptedModel } from '@replan/core/testing';
import { collect } from './support.js';
import { httpError, user, withProvider } from './support/fallback-models.js';
import type { FallbackInfo } from '../src/models/fallback-model.js';

// Which failures `fallbackModel` hands to the next model, and which model the session and observers
// name as the one that answered. Streams: fallback-streaming.test.ts; reasoning: fallback-reasoning.test.ts.

describe('fallbackModel: which failures the next model answers', () => {
  it.each([
    [429, 'rate_limit'],
    [503, 'overloaded'],
    [529, 'overloaded'],
    [500, 'server'],
    [504, 'timeout'],
  ] as const)('HTTP %i (%s): the next model answers, and the response names it', async (status, kind) => {
    const primary = new ScriptedModel({ id: 'primary', responses: [httpError(status)] });
    const backup = new ScriptedModel({ id: 'backup', responses: ['from backup'] });
    const seen: FallbackInfo[] = [];
    const model = fallbackModel([primary, backup], { onFallback: (info) => seen.push(info) });
    const response = await model.generate({ messages: [user('hi')] });
    expect(response.message.content).toEqual([{ type: 'text', text: 'from backup' }]);
    expect(response.model).toEqual({ id: 'backup' });
    expect([primary.calls, backup.calls]).toEqual([1, 1]);
    expect(seen.map((s) => [s.from, s.to, s.kind])).toEqual([['primary', 'backup', kind]]);
  });

  it.each([
    ['HTTP 400', httpError(400, 'InvalidRequestError')],
    ['HTTP 401', httpError(401, 'AuthenticationError')],
    ['HTTP 422', httpError(422)],
    ['a bug', new TypeError('x is not a function')],
  ])('%s is thrown unchanged and no other model is asked', async (_, error) => {
    const backup = new ScriptedModel({ id: 'backup', responses: ['never'] });
    const model = fallbackModel([new ScriptedModel({ responses: [error] }), backup]);
    await expect(model.generate({ messages: [user('hi')] })).rejects.toBe(error);
    expect(backup.calls).toBe(0);
  });

  it('the kind is read from the ModelError (in the cause chain), never from a class name; other errors by status or connection code', () => {
    const refused = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    expect(modelErrorKindOf(refused)).toBe('connection');
    const overloaded = new ModelError({ kind: 'overloaded', model: 'm' });
    expect(modelErrorKindOf(new Error('wrapped', { cause: overloaded }))).toBe('overloaded');
    // A ModelError's kind wins over its status: a quota error is a rate limit whatever its status.
    expect(modelErrorKindOf(new ModelError({ kind: 'rate_limit', status: 402, retryable: false }))).toBe('rate_limit');
    // A class name means nothing: an error named like a provider's old class is read by its status.
    expect(modelErrorKindOf(Object.assign(new Error('x'), { name: 'RateLimitError', status: 400 }))).toBe('invalid_request');
    expect(modelErrorKindOf(Object.assign(new Error('x'), { name: 'ProviderConnectionError' }))).toBeUndefined();
    expect(modelErrorKindOf(Object.assign(new Error('x'), { name: 'AbortError', status: 503 }))).toBeUndefined();
  });

  it.each([
    ['overloaded', true],
    ['server', true],
    ['timeout', true],
    ['connection', true],
    ['rate_limit', true],
    ['auth', false],
    ['invalid_request', false],
    ['content_filter', false],
  ] as const)('a ModelError of kind %s (no status) is handed on: %s', async (kind, handedOn) => {
    const error = new ModelError({ kind, model: 'primary' });
    const backup = new ScriptedModel({ id: 'backup', responses: ['from backup'] });
    const model = fallbackModel([new ScriptedModel({ id: 'primary', responses: [error] }), backup]);
    const outcome = await model.generate({ messages: [user('hi')] }).catch((e: unknown) => e);
    expect(outcome === error ? 'thrown' : (outcome as { model?: unknown }).model).toEqual(handedOn ? { id: 'backup' } : 'thrown');
  });

  it('a ModelError from another copy of @replan/core (its brand) is still read by kind', () => {
    const foreign = Object.assign(new Error('x'), { kind: 'overloaded', [Symbol.for('replan.ModelError')]: true });
    expect(foreign instanceof ModelError).toBe(true);
    expect(modelErrorKindOf(foreign)).toBe('overloaded');
  });

  it('retryOn narrows the kinds, or decides with a function', async () => {
    const only429 = fallbackModel([new ScriptedModel({ responses: [httpError(503)] }), new ScriptedModel({ responses: ['b'] })], {
      retryOn: ['rate_limit'],
    });
    await expect(only429.generate({ messages: [user('hi')] })).rejects.toMatchObject({ status: 503 });

    const on400 = fallbackModel([new ScriptedModel({ responses: [httpError(400)] }), new ScriptedModel({ id: 'b', responses: ['b'] })], {
      retryOn: (_error, kind) => kind === 'invalid_request',
    });
    expect((await on400.generate({ messages: [user('hi')] })).model).toEqual({ id: 'b' });
  });

  it('a context overflow goes only to a model with a larger contextWindow, skipping the others', async () => {
    const overflow = new ModelError({ kind: 'context_length', model: 'small', contextWindow: 8000 });
    const small = new ScriptedModel({ id: 'small', contextWindow: 8000, responses: [overflow] });
    const same = new ScriptedModel({ id: 'same', contextWindow: 8000, responses: ['never'] });
    const unknown = new ScriptedModel({ id: 'unknown', responses: ['never'] });
    const large = new ScriptedModel({ id: 'large', contextWindow: 200_000, responses: ['fits'] });
    const model = fallbackModel([small, same, unknown, large]);
    expect(model.contextWindow).toBe(8000); // sized for the primary
    expect((await model.generate({ messages: [user('long')] })).model).toEqual({ id: 'large' });
    expect([same.calls, unknown.calls, large.calls]).toEqual([0, 0, 1]);
  });

  it('a context overflow with no larger model is thrown as it is (compaction still recognises it)', async () => {
    const overflow = new ModelError({ kind: 'context_length', contextWindow: 8000 });
    const other = new ScriptedModel({ id: 'other', contextWindow: 4000, responses: ['never'] });
    const model = fallbackModel([new ScriptedModel({ contextWindow: 8000, responses: [overflow] }), other]);
    await expect(model.generate({ messages: [user('long')] })).rejects.toBe(overflow);
    expect(other.calls).toBe(0);
  });

  it('when every model fails, FallbackExhaustedError lists each failure in order; the last is its cause', async () => {
    const errors = [httpError(429), httpError(503), new ModelError({ kind: 'context_length', contextWindow: 10 })];
    const model = fallbackModel([
      new ScriptedModel({ id: 'a', responses: [errors[0] as Error] }),
      new ScriptedModel({ id: 'b', responses: [errors[1] as Error] }),
      new ScriptedModel({ id: 'c', responses: [errors[2] as Error] }),
    ]);
    const failure = await model.generate({ messages: [user('hi')] }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(FallbackExhaustedError);
    expect((failure as FallbackExhaustedError).attempts.map((a) => [a.model, a.error])).toEqual([
      ['a', errors[0]],
      ['b', errors[1]],
      ['c', errors[2]],
    ]);
    expect((failure as Error).message).toMatch(/"a" \(HTTP 429\); "b" \(HTTP 503\)/);
    expect(modelErrorOf(failure)?.kind).toBe('context_length');
  });

  it("an abort of the caller's signal is never handed on", async () => {
    const controller = new AbortController();
    const primary = new ScriptedModel({
      respond: () => {
        controller.abort();
        return httpError(503);
      },
    });
    const backup = new ScriptedModel({ responses: ['never'] });
    await expect(
      fallbackModel([primary, backup]).generate({ messages: [user('hi')] }, { signal: controller.signal }),
    ).rejects.toMatchObject({
      status: 503,
    });
    expect(backup.calls).toBe(0);
  });

  it('needs at least one model', () => {
    expect(() => fallbackModel([] as unknown as [ChatModel])).toThrow(/at least one model/);
  });
});

describe('fallbackModel: the answering model in the session and for observers', () => {
  it.each([false, true])('meta.model and the model-call end name the model that answered (streaming: %s)', async (stream) => {
    const primary = withProvider(new ScriptedModel({ id: 'claude-x', responses: [httpError(529)] }), 'anthropic');
    const backup = withProvider(new ScriptedModel({ id: 'gpt-y', responses: ['answered'] }), 'openai');
    const ends: LifecycleInfo<'model-call-end'>[] = [];
    const runner = new Runner({
      agent: new ReActAgent({ name: 'assistant', model: fallbackModel([primary, backup]) }),
      appName: 'app',
      observers: [{ onModelCallEnd: (info) => ends.push(info) }],
      prices: { 'gpt-y': { inputPerMillion: 1, outputPerMillion: 2 } },
    });
    const { events, result } = await collect(runner.run({ userId: 'u', input: 'hi', ...(stream ? { stream: true } : {}) }));
    expect(result.output).toBe('answered');
    const answer = events.find((e) => !e.partial && e.message?.role === 'assistant');
    expect(answer?.meta?.model).toEqual({ id: 'gpt-y', provider: 'openai' });
    expect(ends.map((e) => [e.model, e.provider])).toEqual([['gpt-y', 'openai']]);
    expect(ends[0]?.cost).toBeGreaterThan(0); // priced as the answering model
  });
});
