import { describe, expect, it } from 'vitest';
import {
  FallbackExhaustedError,
  ModelError,
  ReActAgent,
  Runner,
  fallbackModel,
  modelErrorOf,
  type ChatModel,
  type FallbackInfo,
  type Message,
  type ModelCallEndInfo,
  type ModelStreamPart,
} from '@replan/core';
import { modelErrorKindOf } from '@replan/core/agent-kit';
import { ScriptedModel } from '@replan/core/testing';
import { collect } from './support.js';

/** An error shaped like an HTTP failure of any SDK: a `status` and a name. */
const httpError = (status: number, name = 'ProviderError') => Object.assign(new Error(`HTTP ${status}`), { status, name });
const withProvider = <M extends ChatModel>(model: M, provider: string): M => Object.assign(model, { provider });
const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });

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

describe('fallbackModel: the answering model in the session and for observers', () => {
  it.each([false, true])('meta.model and the model-call end name the model that answered (streaming: %s)', async (stream) => {
    const primary = withProvider(new ScriptedModel({ id: 'claude-x', responses: [httpError(529)] }), 'anthropic');
    const backup = withProvider(new ScriptedModel({ id: 'gpt-y', responses: ['answered'] }), 'openai');
    const ends: ModelCallEndInfo[] = [];
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

describe('fallbackModel: reasoning bound to another provider', () => {
  const history: Message[] = [
    user('weather?'),
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', reasoning: 'I should look it up', signature: 'anthropic-sig', provider: 'anthropic' },
        { type: 'reasoning', reasoning: '', redacted: true, data: 'opaque', provider: 'anthropic' },
        { type: 'reasoning', reasoning: '', data: 'encrypted', redacted: true, provider: 'openai', providerData: { item: { id: 'rs_1' } } },
        { type: 'reasoning', reasoning: 'plain thoughts', provider: 'think-tags' },
        { type: 'tool_call', id: 'c1', name: 'weather', args: {}, signature: 'gemini-sig' },
      ],
    },
    { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'c1', name: 'weather', output: 'sunny' }] },
  ];

  it('a fallback gets others’ signatures and encrypted items downgraded to plain text; the input is not changed', async () => {
    const before = structuredClone(history);
    const backup = Object.assign(new ScriptedModel({ responses: ['sunny'] }), { reasoningProviders: ['openai'] });
    await fallbackModel([new ScriptedModel({ responses: [httpError(429)] }), backup]).generate({ messages: history });
    expect(history).toEqual(before);
    expect(backup.requests[0]?.messages[1]?.content).toEqual([
      { type: 'reasoning', reasoning: 'I should look it up' },
      { type: 'reasoning', reasoning: '', data: 'encrypted', redacted: true, provider: 'openai', providerData: { item: { id: 'rs_1' } } },
      { type: 'reasoning', reasoning: 'plain thoughts', provider: 'think-tags' },
      { type: 'tool_call', id: 'c1', name: 'weather', args: {} },
    ]);
  });

  it('a fallback that declares nothing gets no bound reasoning; an undeclared primary gets the request unchanged', async () => {
    const primary = new ScriptedModel({ responses: [httpError(503)] });
    const backup = new ScriptedModel({ responses: ['sunny'] });
    const request = { messages: history };
    await fallbackModel([primary, backup]).generate(request);
    expect(primary.requests[0]).toEqual(request);
    expect(primary.requests[0]?.messages.every((m, i) => m === history[i])).toBe(true);
    const sent = JSON.stringify(backup.requests[0]);
    for (const bound of ['anthropic-sig', 'opaque', 'encrypted', 'gemini-sig', 'rs_1']) expect(sent).not.toContain(bound);
  });

  it("a model keeps its own provider's reasoning", async () => {
    const gemini = Object.assign(new ScriptedModel({ responses: ['ok'] }), { reasoningProviders: ['anthropic', 'gemini'] });
    await fallbackModel([gemini]).generate({ messages: history });
    const sent = JSON.stringify(gemini.requests[0]);
    for (const kept of ['anthropic-sig', 'opaque', 'gemini-sig']) expect(sent).toContain(kept);
    expect(sent).not.toContain('encrypted');
  });

  it('two models behind one gateway (same provider tag): each gets back only the signed reasoning it made', async () => {
    const signed = (sig: string): Message => ({
      role: 'assistant',
      content: [
        {
          type: 'reasoning',
          reasoning: `thinking ${sig}`,
          signature: sig,
          provider: 'openrouter',
          providerData: { type: 'reasoning.text' },
        },
        { type: 'tool_call', id: `call_${sig}`, name: 'weather', args: {} },
      ],
    });
    const primary = Object.assign(
      new ScriptedModel({ id: 'or/claude', responses: [signed('claude-sig'), httpError(429), httpError(429), 'done'] }),
      {
        reasoningProviders: ['openrouter'],
      },
    );
    const backup = Object.assign(new ScriptedModel({ id: 'or/gpt', responses: [signed('gpt-sig'), signed('gpt-sig-2')] }), {
      reasoningProviders: ['openrouter'],
    });
    const model = fallbackModel([primary, backup]);
    const messages: Message[] = [user('weather?')];
    const turn = async () => {
      const response = await model.generate({ messages: [...messages] });
      messages.push(response.message);
      const call = response.message.content.find((b) => b.type === 'tool_call');
      if (call?.type === 'tool_call')
        messages.push({ role: 'tool', content: [{ type: 'tool_result', toolCallId: call.id, name: 'weather', output: 'sunny' }] });
      return response;
    };
    const first = await turn();
    expect(first.message.content[0]).toMatchObject({ signature: 'claude-sig', model: 'or/claude' }); // marked as its maker's
    await turn(); // the primary is rate limited: the backup answers
    await turn(); // still limited: the backup answers again and gets its own signature back
    await turn(); // the primary is back
    const sentTo = (m: ScriptedModel, call: number) => JSON.stringify(m.requests[call]);
    expect(sentTo(backup, 0)).not.toContain('"signature":"claude-sig"');
    expect(sentTo(backup, 0)).toContain('thinking claude-sig'); // downgraded to plain text
    expect(sentTo(backup, 1)).toContain('"signature":"gpt-sig"');
    expect(sentTo(primary, 3)).toContain('"signature":"claude-sig"');
    expect(sentTo(primary, 3)).not.toMatch(/"signature":"gpt-sig/);
  });
});
