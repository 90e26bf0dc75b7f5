/** An unbounded single-consumer queue whose `next()` waits, without polling, for a value or the end. */
export class AsyncQueue<T> {
  private readonly items: T[] = [];
  private head = 0;
  private waiter: (() => void) | undefined;
  private closed = false;
  private failure: { error: unknown } | undefined;

  push(item: T): void {
    this.items.push(item);
    this.wake();
  }

  close(): void {
    this.closed = true;
    this.wake();
  }

  fail(error: unknown): void {
    this.failure = { error };
    this.wake();
  }

  /** The next item, or `undefined` once the queue is closed and drained. */
  async next(): Promise<T | undefined> {
    for (;;) {
      if (this.failure) throw this.failure.error;
      if (this.head < this.items.length) {
        const item = this.items[this.head] as T;
        this.items[this.head++] = undefined as T;
        if (this.head > 1024 && this.head * 2 > this.items.length) {
          this.items.splice(0, this.head);
          this.head = 0;
        }
        return item;
      }
      if (this.closed) return undefined;
      await new Promise<void>((resolve) => (this.waiter = resolve));
    }
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }
}
