import { type SessionStore, Runner, tool } from '@replan/core';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';
import { z } from 'zod';

/** The example's app name (sessions are stored per app). */
export const APP = 'web-chat';

/**
 * A plan–execute trip agent with scripted models (offline, routed by role and step, never by
 * prompt text): it plans two steps, searches flights (slowly, so a page can reload mid-run), revises
 * the plan to the booking, books only once a person approved, then answers.
 */
export function tripRunner(store: SessionStore, options: { readonly searchMs?: number } = {}): Runner {
  const models = scriptPlanExecute({
    plan: { steps: ['find flights to Lisbon', 'book the best flight'] },
    steps: {
      'find flights to Lisbon': {
        toolCalls: [{ name: 'search_flights', args: { to: 'Lisbon' } }],
        text: 'TP1351 leaves at 09:05 for 89 EUR.',
      },
      'book the best flight': { toolCalls: [{ name: 'book_flight', args: { flight: 'TP1351' } }], text: 'Booked TP1351, seat 14C.' },
    },
    replans: [{ steps: ['book the best flight'] }],
    answer: 'Your flight TP1351 to Lisbon on Friday at 09:05 is booked (seat 14C).',
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
