import type { AgentEvent, SessionKey, SessionStore } from '@replan/core';
import { AnswerGate, type GateRelease, withheldAnswers } from '@replan/core/agent-kit';
import { formatChunkId, parseChunkId, sessionTag } from './chunk-id.js';
import { EventChunkEncoder, isInvocationStart } from './event-chunks.js';
import { chunkStream, type IdentifiedChunk } from './identified-chunks.js';
import { SessionChangeWaiter, type SessionChangeSubscription } from './session-changes.js';
import { resolveStreamSession, type StreamSessionRef } from './session-ref.js';
import type { ReplanUIChunk } from './ui-data-parts.js';
import { UIStreamError } from './ui-stream-errors.js';

/** Options of `resumeUIMessageStream`: the session, and where to pick up. */
export type ResumeUIMessageStreamOptions = StreamSessionRef & {
  /**
   * The id of the last chunk the client has (`uiChunkId`, the SSE `Last-Event-ID`): the stream
   * sends what came after it. Without it, the session's last run from its start (a reloaded page).
   */
  readonly after?: string | null;
  /** Re-read the log at least this often while the run goes on (default 1000 ms): for what nothing signals. */
  readonly pollMs?: number;
  /**
   * Change notifications of the store (e.g. a PostgreSQL `LISTEN`), so the stream follows the run
   * at once. Streams of this process and a `FileSessionStore`'s files are watched without it.
   */
  readonly subscribe?: SessionChangeSubscription;
  /** Stops following the run. */
  readonly signal?: AbortSignal;
};

/**
 * Replays a session's stream from its event log and then follows the run live, in any process that
 * can read the store (no Redis, no stream kept in memory): after `after`, or from the start of the
 * last run. Ends with the run (its end, or an interrupt once the run stopped), or when the session
 * moves on to a new run. A bad `after` (another session's id, past the end of the log) or a missing
 * session gives an empty stream whose only chunk is an `error` (a `UIStreamError` of kind
 * `resume_id` or `session_not_found`).
 */
export function resumeUIMessageStream(options: ResumeUIMessageStreamOptions): ReadableStream<ReplanUIChunk> {
  const controller = new AbortController();
  const forward = () => controller.abort();
  if (options.signal?.aborted) forward();
  else options.signal?.addEventListener('abort', forward, { once: true });
  const source = replayed(options, controller.signal);
  return chunkStream(source, (gen) => {
    controller.abort();
    void gen.return(undefined);
  });
}

/** A stored event and its index in the session's log (its chunk ids number from it). */
interface Logged {
  readonly event: AgentEvent;
  readonly index: number;
}

interface Start {
  /** Index of the first event to send chunks of. */
  readonly from: number;
  /** Chunks of that event to skip (those up to and including `n`). */
  readonly skip: number;
  readonly invocationId: string | undefined;
}

function startOf(events: readonly AgentEvent[], tag: string, after: string | null | undefined): Start {
  if (after === undefined || after === null || after === '') {
    let from = events.length;
    for (let i = events.length - 1; i >= 0; i--)
      if (isInvocationStart(events[i] as AgentEvent)) {
        from = i;
        break;
      }
    return { from, skip: -1, invocationId: events[from]?.invocationId };
  }
  const position = parseChunkId(after, tag);
  if (position.seq < 1) throw UIStreamError.resumeId(after, 'malformed', 'chunk positions start at 1');
  if (position.seq > events.length)
    throw UIStreamError.resumeId(
      after,
      'past-end',
      `the session's log has ${events.length} events, the id points at event ${position.seq}`,
    );
  const invocationId = events[position.seq - 1]?.invocationId;
  return position.n === undefined
    ? { from: position.seq, skip: -1, invocationId }
    : { from: position.seq - 1, skip: position.n, invocationId };
}

async function* replayed(options: ResumeUIMessageStreamOptions, signal: AbortSignal): AsyncGenerator<IdentifiedChunk> {
  const { store, key } = resolveStreamSession(options);
  const tag = sessionTag(key);
  const failed = (error: Error): IdentifiedChunk => ({
    id: formatChunkId(tag, { seq: 0, k: 0 }),
    chunk: { type: 'error', errorText: `${error.name}: ${error.message}` },
  });
  const session = await store.get(key);
  if (!session) return yield failed(UIStreamError.sessionNotFound(key.id));
  let start: Start;
  try {
    start = startOf(session.events, tag, options.after);
  } catch (error) {
    if (error instanceof UIStreamError) return yield failed(error);
    throw error;
  }
  const { invocationId } = start;
  if (invocationId === undefined) return;
  const encoder = new EventChunkEncoder(key.id);
  // The run's events the client already has set the encoder's state (plan revision, steps, approvals).
  const earlier = withheldAnswers(session.events);
  for (let i = 0; i < start.from; i++) {
    const event = session.events[i] as AgentEvent;
    if (event.invocationId === invocationId) encoder.stored(event, earlier.get(event.id));
  }
  // An answer waits in the gate until the log says whether an output guardrail blocked it.
  const gate = new AnswerGate<Logged>((logged) => logged.event);
  // No live parts are open in a replay: every slot is filled and nothing comes before them.
  function* chunksOf(released: readonly GateRelease<Logged>[]): Generator<IdentifiedChunk> {
    for (const { item, withheld } of released)
      for (const [n, chunk] of encoder.stored(item.event, withheld).slots.entries())
        if (chunk && !(item.index === start.from && n <= start.skip)) yield { id: formatChunkId(tag, { seq: item.index + 1, n }), chunk };
  }
  const stop = (next: number) => {
    const held = [...chunksOf(gate.flush())];
    return [...held, ...ending(encoder, tag, next)];
  };
  const waiter = new SessionChangeWaiter(store, key, options.pollMs ?? 1000, options.subscribe);
  try {
    let events = session.events;
    let next = start.from;
    for (;;) {
      while (next < events.length) {
        const event = events[next] as AgentEvent;
        if (event.invocationId !== invocationId) return yield* stop(next);
        yield* chunksOf(gate.push({ event, index: next }));
        next++;
        if (event.actions?.invocationEnd) return;
      }
      if (!(await stillRunning(store, key, events))) {
        // The run may have stored its last events (an approval request, say) and let go of its
        // lease between our read of the log and the lease check: read once more before ending.
        const last = (await store.get(key))?.events ?? events;
        if (last.length === events.length) return yield* stop(next);
        events = last;
        continue;
      }
      // A run that just stored an interrupt or an error is about to let go of its lease, which no
      // store announces: look again soon rather than at the next poll.
      await waiter.wait(signal, stopsHere(events) ? STOPPING_RECHECK_MS : Number.POSITIVE_INFINITY);
      if (signal.aborted) return;
      events = (await store.get(key))?.events ?? events;
    }
  } finally {
    waiter.close();
  }
}

function* ending(encoder: EventChunkEncoder, tag: string, seq: number): Generator<IdentifiedChunk> {
  let k = 0;
  for (const chunk of encoder.finish()) yield { id: formatChunkId(tag, { seq, k: k++ }), chunk };
}

const STOPPING_RECHECK_MS = 50;

const stopsHere = (events: readonly AgentEvent[]): boolean => {
  const last = events[events.length - 1];
  return Boolean(last?.actions?.interrupt || last?.error);
};

/**
 * Whether a run may still add to the log: its lease is held (stores with leases), else the log
 * does not end on an interrupt or an error.
 */
async function stillRunning(store: SessionStore, key: SessionKey, events: readonly AgentEvent[]): Promise<boolean> {
  if (store.leaseHolder) return (await store.leaseHolder(key)) !== undefined;
  return !(stopsHere(events) || events[events.length - 1]?.actions?.invocationEnd);
}
