import type { Interrupt } from '../events/agent-event.js';

/**
 * Thrown by `ToolContext.interrupt` to stop a tool until a human answers. If your tool catches
 * errors broadly, rethrow this one (`isInterruptSignal(error)`). A tool that runs an agent
 * (`agentTool`) may stop on several questions at once: `interrupts` lists them all.
 */
export class InterruptSignal extends Error {
  readonly interrupts: readonly Interrupt[];

  constructor(
    readonly interrupt: Interrupt,
    ...more: Interrupt[]
  ) {
    super(`Interrupted: ${interrupt.reason}`);
    this.name = 'InterruptSignal';
    this.interrupts = [interrupt, ...more];
  }
}

export const isInterruptSignal = (error: unknown): error is InterruptSignal => error instanceof InterruptSignal;
