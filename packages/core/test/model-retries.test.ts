import { describe, expect, it, vi } from 'vitest';
import { ModelError, RunAbortedError, type ModelRetry } from '@replan/core';
import { retryModelCall } from '@replan/core/agent-kit';

/** A call that fails with each error in turn, then answers 'ok'; `sent` counts the attempts. */
function failing(...errors: unknown[]) {
  const state = { sent: 0 };
  const send = async () => {
    const error = errors[state.sent++];
    if (error !== undefined) throw error;
    return 'ok';
  };
  return { send, state };
}

const toError = (raw: unknown, attempt: number) =>
  raw instanceof ModelError
    ? new ModelError({
        kind: raw.kind,
        ...(raw.retryAfterMs !== undefined ? { retryAfterMs: raw.retryAfterMs } : {}),
        attempts: attempt,
        ...(raw.retryable !== undefined ? { retryable: raw.retryable } : {}),
      })
    : raw;

describe('retryModelCall: the one retry loop of a model call', () => {
  it('retries a retryable ModelError after its retryAfterMs, telling onRetry first', async () => {
    const { send, state } = failing(
      new ModelError({ kind: 'rate_limit', retryAfterMs: 5 }),
      new ModelError({ kind: 'overloaded', retryAfterMs: 0 }),
    );
    const retries: ModelRetry[] = [];
    await expect(retryModelCall(send, { maxRetries: 2, toError, onRetry: (r) => retries.push(r) })).resolves.toBe('ok');
    expect(state.sent).toBe(3);
    expect(retries.map((r) => [r.attempt, r.maxRetries, r.delayMs, r.error.kind])).toEqual([
      [1, 2, 5, 'rate_limit'],
      [2, 2, 0, 'overloaded'],
    ]);
  });

  it.each(['auth', 'invalid_request', 'context_length', 'content_filter'] as const)('a %s error is not retried', async (kind) => {
    const { send, state } = failing(new ModelError({ kind }));
    const onRetry = vi.fn();
    await expect(retryModelCall(send, { maxRetries: 2, toError, onRetry })).rejects.toMatchObject({ kind });
    expect([state.sent, onRetry.mock.calls.length]).toEqual([1, 0]);
  });

  it('retryable: false wins over the kind (an exhausted quota is a rate limit that waiting does not fix)', async () => {
    const { send, state } = failing(new ModelError({ kind: 'rate_limit', retryable: false }));
    await expect(retryModelCall(send, { maxRetries: 2, toError, onRetry: () => {} })).rejects.toMatchObject({ retryable: false });
    expect(state.sent).toBe(1);
  });

  it('gives up after maxRetries, and throws a wait longer than a minute at once', async () => {
    const busy = () => new ModelError({ kind: 'overloaded', retryAfterMs: 0 });
    const tries = failing(busy(), busy(), busy());
    await expect(retryModelCall(tries.send, { maxRetries: 2, toError, onRetry: () => {} })).rejects.toMatchObject({ attempts: 3 });
    const long = failing(new ModelError({ kind: 'rate_limit', retryAfterMs: 120_000 }));
    await expect(retryModelCall(long.send, { maxRetries: 2, toError, onRetry: () => {} })).rejects.toMatchObject({ kind: 'rate_limit' });
    expect(long.state.sent).toBe(1);
  });

  it('an abort during the wait ends it at once with the run abort error, and nothing is sent again', async () => {
    const controller = new AbortController();
    const { send, state } = failing(new ModelError({ kind: 'rate_limit', retryAfterMs: 30_000 }));
    const started = Date.now();
    const call = retryModelCall(send, {
      maxRetries: 2,
      toError,
      signal: controller.signal,
      onRetry: () => setTimeout(() => controller.abort(), 10),
    });
    await expect(call).rejects.toBeInstanceOf(RunAbortedError);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(state.sent).toBe(1);
  });

  it('what is no ModelError (a bug, an abort) is thrown as it is, without a retry', async () => {
    const bug = new TypeError('x is not a function');
    const { send, state } = failing(bug);
    await expect(retryModelCall(send, { maxRetries: 2, toError, onRetry: () => {} })).rejects.toBe(bug);
    expect(state.sent).toBe(1);
  });

  it('by default each retry is one console.warn line naming the model, the failure and the wait', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const { send } = failing(new ModelError({ kind: 'overloaded', model: 'gpt-x', url: 'http://127.0.0.1:1/v1', retryAfterMs: 0 }));
      const named = (raw: unknown) => raw;
      await retryModelCall(send, { maxRetries: 1, toError: named });
      expect(warn.mock.calls).toEqual([
        [
          expect.stringMatching(
            /^replan: model "gpt-x" at http:\/\/127\.0\.0\.1:1\/v1 failed \(the provider is overloaded\); retry 1\/1 in 0\.0s$/,
          ),
        ],
      ]);
    } finally {
      warn.mockRestore();
    }
  });
});
