/**
 * The next item of a stream, or `'timeout'` when none arrives within `ms` (then `onTimeout` runs,
 * e.g. to abort the request). The SDK's own timeout stops once headers arrive, so a server that
 * stalls mid-body would otherwise hang the call forever. `ms <= 0` or `Infinity` waits forever.
 */
export async function nextWithin<T>(iterator: AsyncIterator<T>, ms: number, onTimeout: () => void): Promise<IteratorResult<T> | 'timeout'> {
  const next = iterator.next();
  if (!(ms > 0) || ms === Number.POSITIVE_INFINITY) return next;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    const result = await Promise.race([next, timeout]);
    if (result === 'timeout') {
      next.catch(() => undefined);
      onTimeout();
    }
    return result;
  } finally {
    clearTimeout(timer);
  }
}

/** The error to throw for an abort the caller asked for. */
export function abortErrorOf(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  const error = new Error(reason === undefined ? 'The operation was aborted.' : `The operation was aborted: ${String(reason)}`);
  error.name = 'AbortError';
  return error;
}
