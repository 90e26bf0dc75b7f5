import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { toolResultsOf, type AgentEvent } from '@replan/core';

/**
 * The stored events' content, without what differs between two runs of the same work (ids,
 * timestamps, invocation ids) and without the markers resumes add.
 */
export const projectEvents = (events: readonly AgentEvent[]) =>
  events.filter((e) => e.meta?.kind !== 'resume').map(({ id: _id, timestamp: _t, invocationId: _i, ...rest }) => rest);

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
}

/** Every model call and tool run the children made (child/effect-log.mjs). */
export const readAttempts = (workDir: string) => readLines<Attempt>(join(workDir, 'attempts.log'));

/** The side effects, as tool call ids (the idempotency key without the session id), in order. */
export const readEffects = async (workDir: string, sessionId: string): Promise<string[]> =>
  (await readLines<{ key: string }>(join(workDir, 'effects.log'))).map((e) =>
    e.key.startsWith(`${sessionId}:`) ? e.key.slice(sessionId.length + 1) : `foreign:${e.key}`,
  );
