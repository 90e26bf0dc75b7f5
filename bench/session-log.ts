/**
 * Synthetic ReAct session logs for the session-store benchmarks: the events a `ReActAgent` named
 * `bench` stores for `steps` iterations of one model call + one tool call, all the same size.
 */
import { randomUUID } from 'node:crypto';
import { ReActAgent, Runner, tool, toolMessage, type AgentEvent, type SessionStore } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { z } from 'zod';

export const AGENT = 'bench';

/** Fixed-width numbers, so that every step's events have the same size. */
const pad = (i: number) => String(i).padStart(6, '0');

/** The tool the bench agent calls; its output is as wide as its argument. */
export const noop = tool({
  name: 'noop',
  description: 'does nothing',
  parameters: z.object({ i: z.string() }),
  execute: ({ i }) => `ok ${i}`,
});

/** A model that calls `noop` with fixed-width ids and arguments until `steps` calls were made, then answers. */
export const stepModel = (steps: number) =>
  new ScriptedModel({
    respond: (_req, call) => (call < steps ? callTools({ name: 'noop', args: { i: pad(call) }, id: `call_${pad(call)}` }) : 'done'),
  });

export const benchRunner = (store: SessionStore, model: ScriptedModel, maxIterations: number) =>
  new Runner({ agent: new ReActAgent({ name: AGENT, model, tools: [noop], maxIterations }), appName: 'bench', sessionStore: store });

/**
 * The events of an unfinished invocation: the user's input, then `(count - 1) / 2` steps of an
 * assistant tool call and its result — the log a crash leaves behind, ready to resume.
 */
export function unfinishedLog(count: number): AgentEvent[] {
  const invocationId = randomUUID();
  const at = (i: number, e: Omit<AgentEvent, 'id' | 'invocationId' | 'timestamp'>): AgentEvent => ({
    id: randomUUID(),
    invocationId,
    timestamp: 1_700_000_000_000 + i,
    ...e,
  });
  const events: AgentEvent[] = [
    at(0, { author: 'user', path: 'user', message: { role: 'user', content: [{ type: 'text', text: 'go' }] } }),
  ];
  for (let step = 0; events.length < count; step++) {
    const call = { type: 'tool_call' as const, id: `call_${pad(step)}`, name: 'noop', args: { i: pad(step) } };
    events.push(
      at(events.length, {
        author: AGENT,
        path: AGENT,
        message: { role: 'assistant', content: [call] },
        usage: { inputTokens: 10, outputTokens: 5 },
      }),
    );
    if (events.length < count)
      events.push(
        at(events.length, {
          author: AGENT,
          path: AGENT,
          message: toolMessage([{ type: 'tool_result', toolCallId: call.id, name: 'noop', output: `ok ${pad(step)}` }]),
        }),
      );
  }
  return events;
}

/** Stores `events` as a new session, in appends of `batch` events. */
export async function storeLog(
  store: SessionStore,
  key: { appName: string; userId: string; id: string },
  events: readonly AgentEvent[],
  batch = 500,
): Promise<void> {
  let { version } = await store.create(key, events.slice(0, batch));
  for (let i = batch; i < events.length; i += batch)
    ({ version } = await store.appendEvents(key, events.slice(i, i + batch), { expectedVersion: version }));
}
