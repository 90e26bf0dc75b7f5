import type { InvocationContext } from './invocation-context.js';
import type { GuardrailStage, GuardrailVerdict } from '../events/guardrail-verdict.js';

/** What a guardrail is told besides the value it checks. */
export interface GuardrailContext {
  readonly stage: GuardrailStage;
  /** The invocation: session state, events so far, the run's signal (pass it to a model call). */
  readonly invocation: InvocationContext;
}

/**
 * A check on a run's input or output: `(value, ctx) → { tripwire, reason? }`, sync or async (it may
 * call a model). The value is the user input's text (input guardrails) or the final answer's text
 * (output guardrails). Throwing fails the run with a `GuardrailError` naming the guardrail.
 */
export type GuardrailFn = (value: string, ctx: GuardrailContext) => GuardrailVerdict | Promise<GuardrailVerdict>;

/** A guardrail: a bare function (named by `fn.name`) or a named one. */
export type Guardrail = GuardrailFn | { readonly name: string; readonly check: GuardrailFn };

/**
 * Guardrails of an agent (`guardrails` option of `ReActAgent`, `createPlanExecuteAgent`, or any
 * `Agent`): checked by the runner in order, the first tripwire blocks the run. They apply to the
 * agent a run (or an `agentTool` child session) starts, not to sub-agents it calls.
 */
export interface Guardrails {
  /** Checked against the run's user input before the agent runs (again on each `resume` of the run). */
  readonly input?: readonly Guardrail[];
  /** Checked against the final answer before the run completes; a tripwire withholds the output. */
  readonly output?: readonly Guardrail[];
}

/** The name a guardrail is reported under. */
export function guardrailName(guardrail: Guardrail, index: number): string {
  if (typeof guardrail === 'function') return guardrail.name || `guardrail ${index + 1}`;
  return guardrail.name;
}
