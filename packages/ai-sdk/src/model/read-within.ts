type ReadResult<T> = Awaited<ReturnType<ReadableStreamDefaultReader<T>['read']>>;

/**
 * The reader's next chunk, or `'timeout'` when none comes within `ms` (0 = wait for ever). The
 * caller cancels the reader on a timeout, which ends the provider's request.
 */
export function readWithin<T>(reader: ReadableStreamDefaultReader<T>, ms: number): Promise<ReadResult<T> | 'timeout'> {
  const read = reader.read();
  if (ms <= 0) return read;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  return Promise.race([read, timeout]).finally(() => clearTimeout(timer));
}
