import { z } from 'zod';
import { InMemorySessionStore, Runner, type AgentEvent, type RunResult, tool } from '@replan/core';
import { createPlanExecuteAgent, planExecuteEventKind } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';

/** A pretend booking desk: what is booked right now, by reference. */
class Desk {
  readonly booked = new Map<string, string>();
  private next = 1;
  book(what: string): string {
    const ref = `R${this.next++}`;
    this.booked.set(ref, what);
    return ref;
  }
  cancel(ref: string): boolean {
    return this.booked.delete(ref);
  }
}

/** How far each hotel is from the conference venue (what `book_hotel` reports). */
const KM_FROM_VENUE: Readonly<Record<string, number>> = { 'Hotel Sintra': 25, 'Hotel Baixa': 1 };

/** The booking tools: each can be undone (`compensate`), keyed by the booking reference it returned. */
function bookingTools(desk: Desk, full: ReadonlySet<string>) {
  const book = (kind: 'flight' | 'hotel') =>
    tool({
      name: `book_${kind}`,
      description: `Books a ${kind}; returns its booking reference.`,
      parameters: z.object({ name: z.string() }),
      execute: ({ name }) => {
        if (full.has(name)) throw new Error(`${name} is full`);
        return { ref: desk.book(`${kind} ${name}`), name, ...(kind === 'hotel' ? { kmFromVenue: KM_FROM_VENUE[name] ?? 1 } : {}) };
      },
      compensate: (_args, result) => {
        const { ref, name } = result as { ref: string; name: string };
        return { cancelled: ref, name, wasBooked: desk.cancel(ref) };
      },
    });
  return [book('flight'), book('hotel')];
}

const resultOf = (results: readonly { output: unknown; isError?: boolean }[]) => results.at(-1);

/** One step script: call `tool` with `name`, then report what the tool returned (or its error). */
const bookingStep = (toolName: string, name: string) => ({
  toolCalls: [{ name: toolName, args: { name } }],
  text: (results: readonly { output: unknown; isError?: boolean }[]) => {
    const last = resultOf(results);
    if (!last) return 'nothing was booked';
    if (last.isError) return String(last.output);
    const { ref, kmFromVenue } = last.output as { ref: string; kmFromVenue?: number };
    return `booked ${name} (${ref})${kmFromVenue !== undefined ? `, ${kmFromVenue} km from the venue` : ''}`;
  },
});

/** The compensations a run stored, as printable lines: what the tools' `compensate` returned. */
export function undoLines(events: readonly AgentEvent[]): string[] {
  return events.flatMap((e) =>
    e.meta?.kind === 'compensation' && e.message?.role === 'tool'
      ? e.message.content.flatMap((b) =>
          b.type === 'tool_result'
            ? [
                `undone  ${b.name} ${(b.output as { name: string }).name}: cancelled ${(b.output as { cancelled: string }).cancelled} (${b.toolCallId})`,
              ]
            : [],
        )
      : [],
  );
}

export interface Outcome {
  readonly result: RunResult;
  readonly steps: readonly string[];
  readonly undone: readonly string[];
  /** What the desk still holds. */
  readonly stillBooked: readonly string[];
}

/**
 * 1. The run is cancelled with compensation: the flight is booked, the hotel step fails (the hotel is
 *    full), and the user cancels the trip as that step's result comes in: `run.abort({ compensate: true })`
 *    undoes the finished calls (the flight); the hotel's failed call has nothing to undo.
 */
export async function cancelledTrip(): Promise<Outcome> {
  const desk = new Desk();
  const models = scriptPlanExecute({
    plan: { steps: ['Book the flight to Lisbon', 'Book the hotel', 'Send the itinerary'] },
    steps: {
      'Book the flight to Lisbon': bookingStep('book_flight', 'TP1350'),
      'Book the hotel': bookingStep('book_hotel', 'Hotel Avenida'),
      'Send the itinerary': 'sent',
    },
    answer: 'Trip booked.',
  });
  const agent = createPlanExecuteAgent({ model: models.model, tools: bookingTools(desk, new Set(['Hotel Avenida'])) });
  const runner = new Runner({ agent, appName: 'trips', sessionStore: new InMemorySessionStore() });
  const run = runner.run({ userId: 'me', input: 'Flight and hotel in Lisbon for Friday.' });
  const steps: string[] = [];
  for await (const event of run) {
    const kind = planExecuteEventKind(event);
    if (kind?.kind !== 'step-result') continue;
    const step = kind.executedStep;
    steps.push(`${String(step.step)}: ${step.error ?? step.result}`);
    if (step.step === 'Book the hotel') run.abort({ compensate: true }); // the user gives up on the trip
  }
  const result = await run.result();
  const session = await runner.sessionStore.get({ appName: 'trips', userId: 'me', id: result.sessionId });
  return { result, steps, undone: undoLines(session?.events ?? []), stillBooked: [...desk.booked.values()] };
}

/**
 * 2. A replan drops a step: the hotel booked turns out to be far from the venue (what the tool
 *    returned says so), and the replanner books another one and marks the first to undo (`undo`).
 */
export async function replannedTrip(): Promise<Outcome> {
  const desk = new Desk();
  const far = { steps: ['Book a hotel near the venue'], undo: ['2'] };
  const models = scriptPlanExecute({
    plan: { steps: ['Book the flight to Lisbon', 'Book the hotel', 'Send the itinerary'] },
    steps: {
      'Book the flight to Lisbon': bookingStep('book_flight', 'TP1350'),
      'Book the hotel': bookingStep('book_hotel', 'Hotel Sintra'),
      'Book a hotel near the venue': bookingStep('book_hotel', 'Hotel Baixa'),
    },
    // After the hotel step: book another hotel and undo step 2 (Hotel Sintra, 25 km away).
    replans: [{ steps: ['Book the hotel', 'Send the itinerary'] }, far],
    answer: (results) => `Booked: ${results['Book the flight to Lisbon']}; ${results['Book a hotel near the venue']}.`,
  });
  const agent = createPlanExecuteAgent({ model: models.model, tools: bookingTools(desk, new Set()) });
  const runner = new Runner({ agent, appName: 'trips', sessionStore: new InMemorySessionStore() });
  const run = runner.run({ userId: 'me', input: 'Flight and a hotel near the conference venue in Lisbon.' });
  const steps: string[] = [];
  for await (const event of run) {
    const kind = planExecuteEventKind(event);
    if (kind?.kind === 'step-result')
      steps.push(`${String(kind.executedStep.step)}: ${kind.executedStep.error ?? kind.executedStep.result}`);
  }
  const result = await run.result();
  const session = await runner.sessionStore.get({ appName: 'trips', userId: 'me', id: result.sessionId });
  return { result, steps, undone: undoLines(session?.events ?? []), stillBooked: [...desk.booked.values()] };
}
