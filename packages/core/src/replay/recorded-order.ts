/**
 * Keeps concurrent agent paths calling in the order the recording's calls started. The graph
 * replanner (and anything else that lists parallel results as they finish) sees steps in
 * completion order, so a replay whose parallel steps finished in another order would ask it
 * something else. A call that started after another path's unserved call in the recording waits
 * until that one is served. This cannot deadlock while the replay follows its recording: a call
 * that started earlier never needed the answer of one that started later. A path whose next call
 * never comes (the run went another way) is waited for at most `maxWaitMs`, once.
 */
export class RecordedOrder {
  private readonly waiting = new Set<{ readonly order: number; readonly release: () => void }>();
  /** Calls that had to wait for another path's earlier answer. */
  waits = 0;

  constructor(
    /** The recorded position of each replaying path's next unserved answer. */
    private readonly nextOrderOfActivePaths: () => Iterable<number>,
    private readonly maxWaitMs: number,
    /** Called when a wait for calls before `order` timed out: those paths are not waited for again. */
    private readonly abandon: (order: number) => void,
  ) {}

  /** Resolves once no active path has an earlier unserved recorded answer (or after `maxWaitMs`). */
  async turn(order: number, signal: AbortSignal | undefined): Promise<void> {
    if (!this.mustWait(order)) return;
    this.waits++;
    await new Promise<void>((resolve, reject) => {
      const entry = {
        order,
        release: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          this.waiting.delete(entry);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        this.abandon(order);
        entry.release();
        this.served(); // others may have waited for the same paths
      }, this.maxWaitMs);
      const onAbort = () => {
        entry.release();
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.add(entry);
    });
  }

  /** Call after an answer was served (or a path went live): releases the calls whose turn it is now. */
  served(): void {
    for (const entry of [...this.waiting]) if (!this.mustWait(entry.order)) entry.release();
  }

  private mustWait(order: number): boolean {
    for (const next of this.nextOrderOfActivePaths()) if (next < order) return true;
    return false;
  }
}
