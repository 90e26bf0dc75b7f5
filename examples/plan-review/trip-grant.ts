import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { type AgentEvent, FileSessionStore, Runner, type SessionStore, tool } from '@replan/core';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';

/** Booking needs a person's approval: each call asks, unless the approved plan granted it. */
const book = tool({
  name: 'book',
  description: 'Books seats on a train',
  parameters: z.object({ train: z.string(), seats: z.number() }),
  needsApproval: true,
  execute: ({ train, seats }) => `Booked ${seats} seat(s) on the ${train}`,
});

/** The plan names the tool its booking step will call, and the train: approving the plan approves that call. */
const bookingStep = { task: 'Book one seat on the night train', tools: ['book'], args: { book: { train: 'Night train 21:40' } } };
const plan = { steps: ['Find trains to Lisbon', bookingStep] };

/** One process of the app (a new agent and Runner over the store); the executor books `train`. */
function app(store: SessionStore, train: string) {
  const models = scriptPlanExecute({
    plan,
    steps: {
      'Find trains to Lisbon': 'Night train 21:40, 80 EUR',
      // A linear step with tools is scripted by its JSON; its result is what the tool returned.
      [JSON.stringify(bookingStep)]: {
        toolCalls: [{ name: 'book', args: { train, seats: 1 } }],
        text: (results) => String(results[0]?.output),
      },
    },
    answer: (results) => `Done: ${results[JSON.stringify(bookingStep)]}.`,
  });
  const agent = createPlanExecuteAgent({ model: models.model, tools: [book], review: { plan: true, grants: true } });
  return new Runner({ agent, appName: 'trips', sessionStore: store });
}

export interface GrantOutcome {
  /** The train the executor booked. */
  readonly booked: string;
  /** The questions the person was asked, in order: the plan review, then any tool approval. */
  readonly asked: readonly string[];
  /** The plan review that granted the booking call, when it was granted. */
  readonly grantedBy: string | undefined;
  readonly output: string | undefined;
}

/** Plans the trip, approves the plan in a new process, then approves any tool call that still asks. */
async function bookTrain(store: SessionStore, train: string): Promise<GrantOutcome> {
  let result = await app(store, train).run({ userId: 'me', input: 'Book me a seat to Lisbon.' }).result();
  const asked: string[] = [];
  while (result.status === 'interrupted') {
    const open = result.interrupts[0];
    if (!open) break;
    asked.push(open.reason);
    const answer = open.reason === 'plan_review' ? { approve: true } : true;
    result = await app(store, train)
      .resume({ userId: 'me', sessionId: result.sessionId, values: { [open.id]: answer } })
      .result();
  }
  const session = await store.get({ appName: 'trips', userId: 'me', id: result.sessionId });
  const booking = (session?.events ?? []).find((e: AgentEvent) =>
    e.message?.content.some((b) => b.type === 'tool_result' && b.name === 'book'),
  );
  const grantedBy = typeof booking?.meta?.grantedBy === 'string' ? booking.meta.grantedBy : undefined;
  return { booked: train, asked, grantedBy, output: result.output };
}

/** A booking the approved plan covers (asked once: the plan), and one with another train (asked again). */
export async function planGrantDemo(dir?: string): Promise<GrantOutcome[]> {
  const store = new FileSessionStore({ dir: dir ?? (await mkdtemp(join(tmpdir(), 'replan-plan-grant-'))) });
  return [await bookTrain(store, 'Night train 21:40'), await bookTrain(store, 'Sleeper 23:10')];
}
