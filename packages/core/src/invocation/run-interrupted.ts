import type { Interrupt } from '../events/agent-event.js';

/**
 * Thrown by an agent after it stored interrupt events: it unwinds every enclosing agent so the
 * run ends `interrupted`. Composite agents must let it pass (after letting siblings finish).
 */
export class RunInterruptedSignal extends Error {
  constructor(readonly interrupts: readonly Interrupt[]) {
    super(`Run interrupted: ${interrupts.map((i) => i.id).join(', ')}`);
    this.name = 'RunInterruptedSignal';
  }
}
