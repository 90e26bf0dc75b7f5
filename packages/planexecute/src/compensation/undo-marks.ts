import { type AgentEvent, type Message, type ToolSpec, toolCallsOf } from '@replan/core';
import { readExecutionState, type PlanExecuteKeys } from '../base/session-keys.js';

/** `meta` key of the replanner's decision event: the steps it marked to undo. */
export const UNDO_META = 'undo';

const UNDO_DESCRIPTION =
  'Optional: steps already run whose effects must not stand (e.g. a booking the new plan replaces), by id ' +
  '(linear plans: the step number n, as in $n). Their tool calls are undone (compensated), latest first, before anything else runs.';

/** The replanner's `plan` or `respond` tool with the optional `undo` field (offered when the executor has compensable tools). */
export function withUndoField(spec: ToolSpec): ToolSpec {
  const parameters = spec.parameters as { properties?: Record<string, unknown> };
  return {
    ...spec,
    parameters: {
      ...spec.parameters,
      properties: { ...parameters.properties, undo: { type: 'array', items: { type: 'string' }, description: UNDO_DESCRIPTION } },
    },
  };
}

/** The `undo` of the decision's tool call (`respond` first, else `plan`, as the replanner reads it); `undefined` when absent. */
export function undoMarksOf(message: Message): unknown {
  const calls = toolCallsOf(message);
  const chosen = calls.find((c) => c.name === 'respond') ?? calls.find((c) => c.name === 'plan');
  return chosen?.args.undo;
}

/** The message with `undo` taken out of its `plan` and `respond` calls (what the plan and answer schemas parse). */
export function withoutUndo(message: Message): Message {
  return {
    ...message,
    content: message.content.map((b) => {
      if (b.type !== 'tool_call' || (b.name !== 'plan' && b.name !== 'respond') || !('undo' in b.args)) return b;
      const { undo: _undo, ...args } = b.args;
      return { ...b, args };
    }),
  };
}

/**
 * The ids of the steps run under this objective: graph steps by `id`, linear steps by their number
 * (1-based, as `$n`), `appended` (the step just run, not yet in state) included.
 */
export function executedStepIds(
  state: Readonly<Record<string, unknown>>,
  keys: PlanExecuteKeys,
  appended: readonly unknown[] = [],
): string[] {
  const steps = [...(readExecutionState(state, keys).executedSteps as readonly unknown[]), ...appended];
  return steps.map((s, i) => {
    const id = (s as { id?: unknown } | null)?.id;
    return typeof id === 'string' ? id : String(i + 1);
  });
}

/** Why the decision's `undo` cannot be used (sent back to the model as a repair), or `undefined`. */
export function undoProblem(marks: unknown, known: readonly string[]): string | undefined {
  if (marks === undefined) return undefined;
  if (!Array.isArray(marks) || marks.some((m) => typeof m !== 'string'))
    return '"undo" must be a list of step ids (strings), e.g. ["2"]; leave it out when nothing is to be undone.';
  const unknown = marks.filter((m) => !known.includes(m));
  if (unknown.length)
    return `"undo" names ${unknown.map((m) => `"${m}"`).join(', ')}, which ${unknown.length > 1 ? 'are' : 'is'} not a step already run (steps run: ${known.length ? known.map((k) => `"${k}"`).join(', ') : 'none'}). Name only steps already run.`;
  return undefined;
}

/** The step an event of a plan step belongs to: its graph id, or its linear step number. */
export function stepIdOf(event: AgentEvent): string | undefined {
  const meta = event.meta;
  if (typeof meta?.stepId === 'string') return meta.stepId;
  return typeof meta?.stepNumber === 'number' ? String(meta.stepNumber) : undefined;
}
