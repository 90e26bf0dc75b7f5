import type { Middleware } from '../middleware/middleware.js';
import type { Guardrails } from '../invocation/guardrail.js';

/**
 * Guardrails on a `ReActAgent`, as middleware: `middleware: [guardrails({ input, output })]`. The
 * runner checks them when this agent is the one a run starts (input before the first model call,
 * output before the run completes); a tripwire ends the run `blocked` with a stored event naming
 * the guardrail. Workflow agents and the plan–execute agent take a `guardrails` option of their own.
 */
export function guardrails(checks: Guardrails): Middleware {
  return { name: 'guardrails', guardrails: checks };
}

/** The guardrails of every middleware of an agent, in order (undefined when none has any). */
export function mergeGuardrails(middleware: readonly Middleware[]): Guardrails | undefined {
  const input = middleware.flatMap((m) => m.guardrails?.input ?? []);
  const output = middleware.flatMap((m) => m.guardrails?.output ?? []);
  if (!input.length && !output.length) return undefined;
  return { ...(input.length ? { input } : {}), ...(output.length ? { output } : {}) };
}
