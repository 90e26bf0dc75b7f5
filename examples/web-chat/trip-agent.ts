import { type SessionStore, Runner, tool } from '@replan/core';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';
import { z } from 'zod';

interface Flight {
  readonly flight: string;
  readonly departs: string;
  readonly price: number;
}

/** The example's app name (sessions are stored per app). */
export const APP = 'web-chat';

/**
 * A plan–execute trip agent with scripted models (offline, routed by role and step, never by
 * prompt text): it plans two steps, searches flights (slowly, so a page can reload mid-run), revises
 * the plan to the booking, books only once a person approved, then answers.
 */
export function tripRunner(store: SessionStore, options: { readonly searchMs?: number } = {}): Runner {
  // Every step reports what its tools returned, and the answer what the steps reported: a refused
  // booking reads as refused.
  const models = scriptPlanExecute({
    plan: { steps: ['find flights to Lisbon', 'book the best flight'] },
    steps: {
      'find flights to Lisbon': {
        toolCalls: [{ name: 'search_flights', args: { to: 'Lisbon' } }],
        text: ([found]) => {
          const flight = (found?.output as { flights?: Flight[] } | undefined)?.flights?.[0];
          return flight ? `${flight.flight} leaves at ${flight.departs} for ${flight.price} EUR.` : 'No flight found.';
        },
      },
      'book the best flight': {
        toolCalls: [{ name: 'book_flight', args: { flight: 'TP1351' } }],
        text: ([booked]) => {
          if (!booked || booked.isError)
            return `Not booked: ${typeof booked?.output === 'string' ? booked.output : 'the booking did not go through'}`;
          const { flight, seat } = booked.output as { flight: string; seat: string };
          return `Booked ${flight}, seat ${seat}.`;
        },
      },
    },
    replans: [{ steps: ['book the best flight'] }],
    answer: (results) => {
      const booking = results['book the best flight'] ?? '';
      const seat = /seat (\w+)/.exec(booking)?.[1];
      return booking.startsWith('Booked') && seat
        ? `Your flight TP1351 to Lisbon on Friday at 09:05 is booked (seat ${seat}).`
        : 'I did not book TP1351: the booking was not approved, so nothing was booked. Ask again to book it.';
    },
  });
  const searchFlights = tool({
    name: 'search_flights',
    description: 'Search flights to a city',
    parameters: z.object({ to: z.string() }),
    execute: async ({ to }) => {
      await new Promise((resolve) => setTimeout(resolve, options.searchMs ?? 1500));
      return { to, flights: [{ flight: 'TP1351', departs: '09:05', price: 89 }] };
    },
  });
  const bookFlight = tool({
    name: 'book_flight',
    description: 'Book a flight (asks a person first)',
    parameters: z.object({ flight: z.string() }),
    needsApproval: true,
    execute: ({ flight }) => ({ flight, seat: '14C', status: 'confirmed' }),
  });
  const agent = createPlanExecuteAgent({ model: models.model, tools: [searchFlights, bookFlight] });
  return new Runner({ agent, appName: APP, sessionStore: store });
}
