import type { Agent, AgentEvent, Interrupt, Tool } from '@replan/core';
import { InvocationContext, runAgent } from '@replan/core/agent-kit';
import { tagOf } from '../base/event-tags.js';
import type { PlanExecuteKeys } from '../base/session-keys.js';
import { readExecutionState } from '../base/session-keys.js';
import { stepIdOf, UNDO_META, executedStepIds } from './undo-marks.js';

/** `meta.kind` of the event listing the dropped steps' calls that were not undone (their result was never stored). */
const SKIPPED = 'compensation-skipped';

const isDecision = (e: AgentEvent) => tagOf(e) === 'revised-plan' || tagOf(e) === 'answer';

/** The steps a replan drops: those its decision marked `undo`, and with `compensateDropped` every step that failed. */
function droppedSteps(ctx: InvocationContext, keys: PlanExecuteKeys, decision: AgentEvent, compensateDropped: boolean): Set<string> {
  const marked = decision.meta?.[UNDO_META];
  const dropped = new Set(Array.isArray(marked) ? (marked as string[]) : []);
  if (compensateDropped) {
    const steps = readExecutionState(ctx.state, keys).executedSteps as readonly { readonly error?: unknown }[];
    const ids = executedStepIds(ctx.state, keys);
    steps.forEach((s, i) => {
      if (s?.error !== undefined) dropped.add(ids[i] as string);
    });
  }
  return dropped;
}

/**
 * The replanner of a plan–execute agent whose steps can be undone (`tool({ compensate })`): after
 * the replanner's decision is stored, the finished calls of the steps it drops are undone (see
 * `droppedSteps`), latest first, each a stored `<callId>:compensate` call — before the next step
 * runs, or before the loop ends with the answer: the answer's `exitLoop` is held back and stored
 * once undoing is done, so a crash in between is finished by `resume` (the loop re-enters this
 * agent, which finds its decision stored and undoes what is left, each compensation once). A
 * compensation that fails ends the run `failed` with a `CompensationError` (a resume reports it
 * again and runs nothing). Same name, path and events as the replanner it wraps.
 */
export class CompensatingReplanner implements Agent {
  readonly name: string;
  readonly description: string;
  readonly operation = 'plan' as const;

  constructor(
    private readonly inner: Agent,
    private readonly keys: PlanExecuteKeys,
    private readonly compensateDropped: boolean,
  ) {
    this.name = inner.name;
    this.description = inner.description;
  }

  checkResumeValue(interrupt: Interrupt, value: unknown, state: Readonly<Record<string, unknown>>): void {
    this.inner.checkResumeValue?.(interrupt, value, state);
  }

  async *run(ctx: InvocationContext): AsyncGenerator<AgentEvent, void, undefined> {
    let decision = ctx.ownEvents().find(isDecision);
    let heldExit = decision !== undefined && tagOf(decision) === 'answer' && decision.actions?.exitLoop !== true;
    if (!decision) {
      // The replanner runs as itself, on this agent's path (same name): its events are this agent's.
      const inner = new InvocationContext(ctx.services, this.inner, ctx.path, ctx.branch, ctx.scopeStart, ctx.label);
      for await (const event of runAgent(inner)) {
        if (!isDecision(event)) {
          yield event;
          continue;
        }
        decision = event;
        const marked = event.meta?.[UNDO_META];
        // Something may be undone after the answer: its exit waits until that is stored.
        if (event.actions?.exitLoop && (this.compensateDropped || (Array.isArray(marked) && marked.length))) {
          const { exitLoop: _held, ...actions } = event.actions;
          heldExit = true;
          yield { ...event, actions };
        } else yield event;
      }
    }
    if (!decision) return;
    const dropped = droppedSteps(ctx, this.keys, decision, this.compensateDropped);
    if (dropped.size) {
      const report = yield* ctx.compensate((e) => dropped.has(stepIdOf(e) ?? '') && tagOf(e) === 'step');
      // Calls of dropped steps with no stored result are not undone: said once, in the log, for a person to check.
      if (report.skipped.length && !ctx.ownEvents().some((e) => e.meta?.kind === SKIPPED))
        yield ctx.event({ meta: { kind: SKIPPED, skipped: report.skipped } });
    }
    if (heldExit) yield ctx.event({ actions: { exitLoop: true } });
  }
}

/**
 * Whether a plan–execute agent's steps can be undone: `compensateDropped`, or an executor tool with
 * `compensate` (`tools`, or those of an executor from `createExecutor`). Then the replanner offers `undo`.
 */
export function undoOffered(options: { readonly compensateDropped?: boolean; readonly tools?: readonly Tool[] }, executor: Agent): boolean {
  const tools = options.tools ?? (executor as { readonly options?: { readonly tools?: readonly Tool[] } }).options?.tools ?? [];
  return options.compensateDropped === true || tools.some((t) => t.compensate);
}

/** The loop's replanner that undoes the steps its decisions drop (see `CompensatingReplanner`). */
export const withUndo = (replanner: Agent, keys: PlanExecuteKeys, compensateDropped: boolean | undefined): Agent =>
  new CompensatingReplanner(replanner, keys, compensateDropped === true);
