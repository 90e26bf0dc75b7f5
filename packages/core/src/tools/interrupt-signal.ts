import type { Interrupt } from '../events/agent-event.js';

/**
 * Thrown by `ToolContext.interrupt` to stop a tool until a human answers. If your tool catches
 * errors broadly, rethrow this one (`isInterruptSignal(error)`).
 */
export class InterruptSignal extends Error {
  constructor(readonly interrupt: Interrupt) {
    super(`Interrupted: ${interrupt.reason}`);
    this.name = 'InterruptSignal';
  }
}

export const isInterruptSignal = (error: unknown): error is InterruptSignal => error instanceof InterruptSignal;
