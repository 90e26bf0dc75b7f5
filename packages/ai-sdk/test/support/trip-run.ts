import { InMemorySessionStore, Runner, tool, type SessionStore } from '@replan/core';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';
import type { UIMessage } from 'ai';
import { readUIMessageStream } from 'ai';
import { z } from 'zod';
import { uiChunkId, type ReplanUIChunk } from '../../src/index.js';

/** A gate a tool waits on, so a test can hold a run in the middle. */
export function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/**
 * A scripted trip run: plan [look up, book]; "look up" searches, the replanner revises to [book],
 * "book" needs approval; then the answer. `hold` (optional) is awaited inside the search tool.
 */
export function tripRunner(options: { store?: SessionStore; hold?: Promise<void> } = {}) {
  const models = scriptPlanExecute({
    plan: { steps: ['look up flights', 'book the flight'] },
    steps: {
      'look up flights': { toolCalls: [{ name: 'search', args: { to: 'Lisbon' } }], text: 'TP123 at 9:05' },
      'book the flight': { toolCalls: [{ name: 'book', args: { flight: 'TP123' } }], text: 'Booked TP123' },
    },
    replans: [{ steps: ['book the flight'] }],
    answer: 'Your flight TP123 to Lisbon is booked.',
  });
  const search = tool({
    name: 'search',
    description: 'Search flights',
    parameters: z.object({ to: z.string() }),
    execute: async () => {
      await options.hold;
      return { flights: ['TP123'] };
    },
  });
  const book = tool({
    name: 'book',
    description: 'Book a flight',
    parameters: z.object({ flight: z.string() }),
    needsApproval: true,
    execute: async ({ flight }) => `booked ${flight}`,
  });
  const agent = createPlanExecuteAgent({ model: models.model, tools: [search, book] });
  const store = options.store ?? new InMemorySessionStore();
  return { runner: new Runner({ agent, appName: 'trips', sessionStore: store }), store };
}

/** Every chunk of a stream with its id. */
export async function collect(stream: ReadableStream<ReplanUIChunk>): Promise<{ id: string | undefined; chunk: ReplanUIChunk }[]> {
  const out: { id: string | undefined; chunk: ReplanUIChunk }[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<ReplanUIChunk>) out.push({ id: uiChunkId(chunk), chunk });
  return out;
}

/** The message `ai`'s own reader builds from the chunks. */
export async function readMessage(chunks: readonly ReplanUIChunk[], message?: UIMessage): Promise<UIMessage> {
  const stream = new ReadableStream<ReplanUIChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let last: UIMessage | undefined;
  for await (const snapshot of readUIMessageStream({ stream, ...(message ? { message } : {}), terminateOnError: false })) last = snapshot;
  if (!last) throw new Error('readUIMessageStream built no message');
  return last;
}
