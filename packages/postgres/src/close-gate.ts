/**
 * Calls that must finish before the store ends its pools. `run` registers a call before its
 * first await, so `close()` started right after it still waits for it — an append with media
 * reads the session's blobs before it reaches the commit queue, and would otherwise find the
 * pool ended under it. Once `close()` began, `run` refuses new calls with `refuse()`'s error.
 */
export class CloseGate {
  private readonly running = new Set<Promise<unknown>>();
  private closed = false;

  /** Runs `body` unless closing began (then rejects with `refuse()`), tracking it until it settles. */
  run<T>(body: () => Promise<T>, refuse: () => Error): Promise<T> {
    if (this.closed) return Promise.reject(refuse());
    const call = body();
    this.running.add(call);
    const forget = () => this.running.delete(call);
    call.then(forget, forget);
    return call;
  }

  /** Refuses new calls from now on; resolves once every call already running has settled. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.running.size) await Promise.allSettled([...this.running]);
  }
}
