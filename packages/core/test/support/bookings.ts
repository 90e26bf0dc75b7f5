// Booking tools with compensations, for the compensation tests: each call and each compensation
// is written to `log` (in order), so a test can tell what ran, what was undone and how often.
import { z } from 'zod';
import { tool, type Tool } from '@replan/core';

export interface BookingLog {
  readonly lines: string[];
  /** Tools whose compensation throws (a failing undo). */
  readonly failing: Set<string>;
  /** Tools whose execute never returns (a call in flight when the run stops). */
  readonly hanging: Set<string>;
  /** Every call as it starts (a hanging one included). */
  readonly started: string[];
}

export const bookingLog = (): BookingLog => ({ lines: [], failing: new Set(), hanging: new Set(), started: [] });

/** A `book_<kind>` tool returning `{ ref }`, whose compensation cancels that ref; `note` sees every run. */
export function bookingTool(kind: string, log: BookingLog, note: (line: string) => void = () => undefined): Tool {
  return tool({
    name: `book_${kind}`,
    description: `Books a ${kind}.`,
    parameters: z.object({ what: z.string() }),
    execute: async ({ what }, ctx) => {
      log.started.push(`${kind} ${what}`);
      if (log.hanging.has(kind)) await new Promise(() => undefined);
      const line = `book ${kind} ${what}`;
      log.lines.push(line);
      note(line);
      return { ref: `${kind}-${ctx.toolCallId}` };
    },
    compensate: async ({ what }, result, ctx) => {
      const ref = (result as { ref: string }).ref;
      const line = `cancel ${kind} ${what} ${ref} key=${ctx.idempotencyKey}`;
      log.lines.push(line);
      note(line);
      if (log.failing.has(kind)) throw new Error(`the ${kind} desk is closed`);
      return { cancelled: ref };
    },
  });
}

/** A tool without a compensation (reading has nothing to undo). */
export const lookupTool = tool({
  name: 'lookup',
  description: 'Looks something up.',
  parameters: z.object({ q: z.string() }),
  execute: ({ q }) => `found ${q}`,
});

/**
 * `book_flight({ what })` returning `{ ref: 'flight-<what>' }`, its compensation `{ cancelled: ref }`:
 * the compensable tool of the tests that look at how a compensation is sent, reported or shown.
 */
export const flightBooking = tool({
  name: 'book_flight',
  description: 'Books a flight.',
  parameters: z.object({ what: z.string() }),
  execute: ({ what }) => ({ ref: `flight-${what}` }),
  compensate: (_args, result) => ({ cancelled: (result as { ref: string }).ref }),
});

/** `pay({})`, which needs approval (a run that calls it stops): its call waits with no result. */
export const payTool = tool({
  name: 'pay',
  description: 'Pays.',
  parameters: z.object({}),
  needsApproval: true,
  execute: () => 'paid',
  compensate: () => 'refunded',
});
