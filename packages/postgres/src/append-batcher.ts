import type { PendingAppend } from './batch-append.js';

/** A queued append and how to answer its caller. */
export interface QueuedAppend {
  readonly append: PendingAppend;
  readonly resolve: (result: { version: number }) => void;
  readonly reject: (error: unknown) => void;
}

/** At most this many appends go into one commit (a bound on one statement's size). */
const MAX_BATCH = 64;

const sessionOf = (a: PendingAppend) => JSON.stringify([a.key.appName, a.key.userId, a.key.id]);

/**
 * Group commit: one commit runs at a time; appends that arrive meanwhile wait and then go
 * together into the next one. A lone append waits only until the current turn of the event
 * loop ends (so appends made in the same tick share a commit). A batch holds at most one append
 * per session: a second one for the same session waits for the next commit, so appends to one
 * session keep their order and version checks. `commit` must settle every append it is given;
 * each caller is answered only after the commit holding its append.
 */
export class AppendBatcher {
  private queue: QueuedAppend[] = [];
  private running = false;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly commit: (batch: QueuedAppend[]) => Promise<void>) {}

  append(append: PendingAppend): Promise<{ version: number }> {
    return new Promise((resolve, reject) => {
      this.queue.push({ append, resolve, reject });
      this.schedule();
    });
  }

  /** Resolves once every queued append was committed (or refused). */
  idle(): Promise<void> {
    if (!this.running && !this.queue.length) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private schedule(): void {
    if (this.running) return;
    if (!this.queue.length) {
      for (const wake of this.idleWaiters.splice(0)) wake();
      return;
    }
    this.running = true;
    setImmediate(() => void this.next());
  }

  private async next(): Promise<void> {
    const batch: QueuedAppend[] = [];
    const rest: QueuedAppend[] = [];
    const sessions = new Set<string>();
    for (const queued of this.queue) {
      const session = sessionOf(queued.append);
      if (batch.length < MAX_BATCH && !sessions.has(session)) {
        sessions.add(session);
        batch.push(queued);
      } else rest.push(queued);
    }
    this.queue = rest;
    try {
      await this.commit(batch);
    } catch (error) {
      for (const queued of batch) queued.reject(error); // commit settles each; this is only a safety net
    } finally {
      this.running = false;
      this.schedule();
    }
  }
}
