import type { AgentEvent, Run, SessionKey, SessionStore } from '@replan/core';
import { AnswerGate, type WithheldAnswer, withheldAnswers } from '@replan/core/agent-kit';
import { formatChunkId, sessionTag } from './chunk-id.js';
import { EventChunkEncoder, isOwnEvent } from './event-chunks.js';
import { chunkStream, type IdentifiedChunk } from './identified-chunks.js';
import { notifySessionChanged } from './session-changes.js';
import { resolveRunSession, type StreamSessionRef } from './session-ref.js';
import type { ReplanUIChunk } from './ui-data-parts.js';

/**
 * Which session the run belongs to (its chunk ids and message id come from that session's log).
 * Optional: a `Run` knows its own session (`run.sessionId` and its runner's store).
 */
export type ToUIMessageStreamOptions = StreamSessionRef;

/**
 * A run (`runner.run` / `runner.resume`, best with `stream: true`) as an AI SDK UI message stream:
 * text and reasoning deltas, tool parts with their input, output and approval requests, `data-plan`
 * and `data-step` parts, then `finish`. The assistant message id is the invocation's (the same
 * across resumes and replays), and every chunk has an id from the session's event sequence
 * (`uiChunkId`), so `resumeUIMessageStream` can pick up after it. Cancelling the stream (a client
 * that went away) stops sending only: the run goes on and stores its events.
 */
export function toUIMessageStream(run: Run, options?: ToUIMessageStreamOptions): ReadableStream<ReplanUIChunk> {
  const { store, key } = resolveRunSession(run, options);
  return chunkStream(liveChunks(run, store, key), (source) => {
    // Keep following the run, so streams resumed in this process still wake on its events.
    void (async () => {
      for await (const _ of source);
    })().catch(() => undefined);
  });
}

async function* liveChunks(run: Run, store: SessionStore, key: SessionKey): AsyncGenerator<IdentifiedChunk> {
  const tag = sessionTag(key);
  const encoder = new EventChunkEncoder(key.id);
  let seq = 0;
  let located = false;
  let k = 0;
  let ended = false;
  const live = (chunk: ReplanUIChunk): IdentifiedChunk => ({ id: formatChunkId(tag, { seq, k: k++ }), chunk });
  // An answer waits in the gate until it is known whether an output guardrail blocked it.
  const gate = new AnswerGate();
  async function* chunksOf(event: AgentEvent, withheld: WithheldAnswer | undefined): AsyncGenerator<IdentifiedChunk> {
    if (event.partial) {
      if (located) for (const chunk of encoder.partial(event)) yield live(chunk);
      return;
    }
    if (located) seq++;
    else {
      seq = await locate(store, key, event, encoder);
      located = true;
    }
    notifySessionChanged(key);
    const { pre, slots } = encoder.stored(event, withheld);
    // Live-only chunks (closing streamed parts) come first, numbered after the previous event.
    seq--;
    for (const chunk of pre) yield live(chunk);
    seq++;
    k = 0;
    for (const [n, chunk] of slots.entries()) if (chunk) yield { id: formatChunkId(tag, { seq, n }), chunk };
    if (event.actions?.invocationEnd) ended = true;
  }
  try {
    for await (const event of run) {
      if (!isOwnEvent(event)) continue;
      for (const { item, withheld } of gate.push(event)) yield* chunksOf(item, withheld);
    }
    for (const { item, withheld } of gate.flush()) yield* chunksOf(item, withheld);
    // The run has ended and released its lease: resumed streams waiting on it can tell now.
    notifySessionChanged(key);
    if (!ended) for (const chunk of encoder.finish()) yield live(chunk);
  } catch (error) {
    yield live({ type: 'error', errorText: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
  }
}

/**
 * Where the run's first stored event sits in the session's log; the invocation's earlier events
 * (before a resume) prime the encoder, so plan revisions, steps and approvals continue.
 */
async function locate(store: SessionStore, key: SessionKey, first: AgentEvent, encoder: EventChunkEncoder): Promise<number> {
  const events = (await store.get(key))?.events ?? [];
  const index = events.findIndex((e) => e.id === first.id);
  if (index < 0) return events.length + 1;
  const withheld = withheldAnswers(events);
  for (let i = 0; i < index; i++) {
    const earlier = events[i] as AgentEvent;
    if (earlier.invocationId === first.invocationId) encoder.stored(earlier, withheld.get(earlier.id));
  }
  return index + 1;
}
