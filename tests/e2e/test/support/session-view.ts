import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { toolResultsOf, type AgentEvent } from '@replan/core';

/**
 * An event without what depends on timing: for a graph step, how many other steps' results it did
 * not see (`meta.contextPolicy.omitted`), and so its model requests (`meta.request`: the prompt
 * holds that view); for any stored model response, which model call of its run it was
 * (`meta.request.call`: a resumed run counts its calls anew). Other fingerprints stay: the same
 * work asks the same.
 */
function withoutTimingMeta(event: Omit<AgentEvent, 'id' | 'timestamp' | 'invocationId'>) {
  let meta = event.meta;
  const policy = meta?.contextPolicy as Record<string, unknown> | undefined;
  if (meta?.stepId !== undefined && policy) {
    const { request: _r, ...rest } = meta;
    const { omitted: _p, ...shown } = policy;
    meta = { ...rest, contextPolicy: shown };
  }
  const request = meta?.request as Record<string, unknown> | undefined;
  if (request && 'call' in request) {
    const { call: _c, ...rest } = request;
    meta = { ...meta, request: rest };
  }
  return meta === event.meta ? event : { ...event, meta };
}

/**
 * The stored events' content, without what differs between two runs of the same work (ids,
 * timestamps, invocation ids) and without the markers resumes add. A graph step's events leave
 * out how many unrelated results it did not see: that counts the steps finished when it started,
 * which in a parallel wave depends on timing (and on where a kill fell); model responses leave out
 * their call number in the run (see `withoutTimingMeta`).
 */
export const projectEvents = (events: readonly AgentEvent[]) =>
  events.filter((e) => e.meta?.kind !== 'resume').map(({ id: _id, timestamp: _t, invocationId: _i, ...rest }) => withoutTimingMeta(rest));

/**
 * Projected events by graph step (`meta.stepId`; `-` for the rest), each in stored order: the
 * steps of a parallel wave interleave differently from run to run, each step's own sequence and
 * the order of the other events do not. A linear run has only `-`.
 */
export function eventsByStep(events: readonly AgentEvent[]) {
  const groups: Record<string, ReturnType<typeof projectEvents>> = {};
  for (const e of projectEvents(events)) {
    const step = typeof e.meta?.stepId === 'string' ? e.meta.stepId : '-';
    groups[step] = [...(groups[step] ?? []), e];
  }
  return groups;
}

/**
 * Session state with graph `ExecutedSteps` in id order: graph steps are appended as they finish,
 * so siblings of a wave may be listed in either order (linear steps keep theirs).
 */
export function projectState(state: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const steps = state.ExecutedSteps;
  if (!Array.isArray(steps)) return { ...state };
  const id = (s: unknown) => String((s as { id?: unknown } | null)?.id ?? '');
  return { ...state, ExecutedSteps: steps.toSorted((a, b) => id(a).localeCompare(id(b))) };
}

/** Steps whose result is stored: graph step ids, or linear step texts (the executor model logs the same). */
export const finishedSteps = (events: readonly AgentEvent[]): Set<string> =>
  new Set(events.filter((e) => e.meta?.planExecute === 'step-result').map((e) => String(e.meta?.stepId ?? e.meta?.step)));

/** Tool calls whose results are stored. */
export const storedToolResults = (events: readonly AgentEvent[]): Set<string> =>
  new Set(events.flatMap((e) => toolResultsOf(e.message).map((r) => r.toolCallId)));

/** Stored model answers (every model call of the scripted agents stores one assistant message). */
export const storedModelAnswers = (events: readonly AgentEvent[]): number =>
  events.filter((e) => e.message?.role === 'assistant' && e.author !== 'user').length;

const readLines = async <T>(file: string): Promise<T[]> => {
  const text = await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? '' : Promise.reject(e)));
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);
};

export interface Attempt {
  readonly process: string;
  readonly kind: 'model' | 'tool';
  readonly role?: string;
  readonly tool?: string;
  readonly callId?: string;
  /** Executor model calls: the step the call is for (graph step id, or linear step text). */
  readonly step?: string;
}

/** Every model call and tool run the children made (child/effect-log.mjs). */
export const readAttempts = (workDir: string) => readLines<Attempt>(join(workDir, 'attempts.log'));

/** The side effects, as tool call ids (the idempotency key without the session id), in the order they were made. */
export const readEffects = async (workDir: string, sessionId: string): Promise<string[]> =>
  (await readLines<{ key: string }>(join(workDir, 'effects.log'))).map((e) =>
    e.key.startsWith(`${sessionId}:`) ? e.key.slice(sessionId.length + 1) : `foreign:${e.key}`,
  );
