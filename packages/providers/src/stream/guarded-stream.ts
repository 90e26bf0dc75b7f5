import { type Message, ModelError } from '@replan/core';
import { toModelError } from '../errors/map-error.js';
import { abortErrorOf, nextWithin } from './idle-timeout.js';

/** An SDK stream: iterable, with the controller that aborts its request. */
export interface SdkStream {
  readonly controller: AbortController;
  [Symbol.asyncIterator](): AsyncIterator<unknown>;
}

export interface GuardOptions {
  readonly model: string;
  readonly idleTimeoutMs: number;
  readonly signal: AbortSignal | undefined;
  /** The output so far, for the error of a stream that fails midway. */
  readonly partial: () => Message;
}

/**
 * The events of an SDK stream, guarded: a silence longer than `idleTimeoutMs` aborts the request
 * with a `ModelError` of kind `timeout`, failures become `ModelError`s keeping the partial output, the caller's
 * abort is thrown as itself (the SDK ends an aborted stream quietly), and a consumer that stops
 * early aborts the request.
 */
export async function* guardedStream(stream: SdkStream, options: GuardOptions): AsyncGenerator<Record<string, unknown>, void, undefined> {
  const { model, idleTimeoutMs, signal, partial } = options;
  const iterator = stream[Symbol.asyncIterator]();
  let finished = false;
  try {
    for (;;) {
      let next: IteratorResult<unknown> | 'timeout';
      try {
        next = await nextWithin(iterator, idleTimeoutMs, () => stream.controller.abort());
      } catch (error) {
        if (signal?.aborted) throw abortErrorOf(signal);
        throw toModelError(error, { model, partial: partial() });
      }
      if (next === 'timeout')
        throw new ModelError({
          kind: 'timeout',
          hint: 'raise idleTimeoutMs if the model may stay silent this long',
          providerMessage: `the stream sent nothing for ${idleTimeoutMs} ms (idleTimeoutMs)`,
          model,
          partial: partial(),
        });
      if (next.done) break;
      const value = next.value;
      yield typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
    }
    finished = true;
  } finally {
    if (!finished) stream.controller.abort();
  }
  if (signal?.aborted) throw abortErrorOf(signal);
}
