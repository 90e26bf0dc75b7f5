import type { AgentEvent, Interrupt, Message } from '@replan/core';
import type { WithheldAnswer } from '@replan/core/agent-kit';
import { isApprovalAnswer } from '@replan/core';
import { guardrailBlockOf, guardrailBlockText } from '@replan/core/agent-kit';
import { planExecuteEventKind, stepsOf, type ExecutedGraphStep, type ExecutedStep } from '@replan/planexecute';
import { assistantMessageId } from './message-id.js';
import type { CompensationData, ReplanUIChunk, StepData } from './ui-data-parts.js';

/** Planner and replanner events: their `plan`/`respond` calls become `data-plan` and the answer, never tool parts. */
const PLANNING_TAGS = new Set(['planning', 'repair', 'plan', 'revised-plan', 'plan-step', 'plan-review', 'plan-reviewed', 'plan-rejected']);

/** A position among a stored event's chunks; `undefined` where the live stream already sent it as deltas. */
export type Slot = ReplanUIChunk | undefined;

/** What a stored event gives (see `EventChunkEncoder.stored`). */
export interface StoredChunks {
  readonly pre: readonly ReplanUIChunk[];
  readonly slots: readonly Slot[];
}

/** True for an event stored in this session's log (a nested `agentTool` event lives in its child session). */
export const isOwnEvent = (event: AgentEvent): boolean => event.meta?.childSessionId === undefined;

/** True for the first event of an invocation (the user's input). */
export const isInvocationStart = (event: AgentEvent): boolean =>
  event.author === 'user' && event.path === 'user' && event.message !== undefined && !event.actions?.resumeValues;

const approvalOf = (value: unknown): boolean | undefined =>
  !isApprovalAnswer(value) ? undefined : typeof value === 'boolean' ? value : value.approved;

/**
 * Turns one invocation's events into UI message chunks. The same stored events give the same
 * chunks whether they arrive live or are replayed from the log; streamed deltas (live only) open
 * text and reasoning parts that the stored message then closes instead of repeating.
 */
export class EventChunkEncoder {
  private readonly liveText = new Map<string, string>();
  private readonly liveReasoning = new Map<string, string>();
  private readonly runningSteps = new Set<string>();
  private readonly approvalCalls = new Map<string, string>();
  private readonly deniedCalls = new Set<string>();
  private revision = -1;
  /** Text and reasoning parts opened so far in this message: their ids, the same live and replayed (the AI SDK keeps a reasoning part's id). */
  private parts = 0;

  constructor(private readonly sessionId: string) {}

  /**
   * The chunks of a stored event of the session. `slots` are the same in a live stream and in a
   * replay, position for position (a chunk's id numbers its slot): where the live stream already
   * sent a text as deltas, the slots of its start and deltas are empty (`undefined`) and only its end
   * is sent. `pre` are live-only chunks that close streamed parts before them (never in a replay).
   * A `withheld` answer (`AnswerGate`, `withheldAnswers`) gives none of its text: the end of its
   * blocked run shows the block instead.
   */
  stored(event: AgentEvent, withheld?: WithheldAnswer): StoredChunks {
    const out: Slot[] = [];
    const pre: ReplanUIChunk[] = [];
    const actions = event.actions;
    if (event.author === 'user' && event.path === 'user') {
      if (actions?.resumeValues) this.noteAnswers(actions.resumeValues);
      if (event.message || actions?.resumeValues)
        out.push({ type: 'start', messageId: assistantMessageId(this.sessionId, event.invocationId) });
      return { pre, slots: out };
    }
    if (event.error) {
      pre.push(...this.closeLive(event.path));
      out.push({ type: 'error', errorText: `${event.error.name}: ${event.error.message}` });
    }
    if (actions?.invocationEnd) pre.push(...this.closeAll());
    const kind = planExecuteEventKind(event);
    const tag = typeof event.meta?.planExecute === 'string' ? event.meta.planExecute : undefined;
    switch (kind?.kind) {
      case 'plan':
      case 'revised-plan':
        out.push(...this.planChunks(kind.plan));
        break;
      case 'step-progress':
        out.push(...this.stepStarted(event, kind.step, kind.stepNumber, kind.stepId));
        break;
      case 'step-result':
        out.push(...this.stepStarted(event, kind.executedStep?.step ?? event.meta?.step, kind.stepNumber, kind.stepId));
        break;
    }
    if (withheld) pre.push(...this.closeLive(event.path));
    else if (event.meta?.kind === COMPENSATION && event.message) out.push(...compensationChunks(event.message, event.meta.compensates));
    else if (!tag || !PLANNING_TAGS.has(tag)) {
      if (event.message) out.push(...this.messageChunks(event.message, event.path));
      else if (actions?.final) out.push(...this.textChunks(actions.final.text, event.path));
    }
    out.push(...skippedChunks(event));
    if (kind?.kind === 'step-result') out.push(this.stepFinished(event, kind.executedStep, kind.stepNumber, kind.stepId));
    if (actions?.interrupt) out.push(this.interruptChunk(actions.interrupt));
    const blocked = guardrailBlockOf(event);
    if (blocked) {
      // Said in the message for any UI, and as data for one that shows blocks its own way.
      out.push(...this.textChunks(guardrailBlockText(blocked), event.path));
      out.push({ type: 'data-guardrail', id: 'guardrail', data: blocked });
    }
    if (actions?.invocationEnd) out.push({ type: 'finish' });
    return { pre, slots: out };
  }

  /** The chunks of a streamed delta (never stored): it opens or extends the path's live text or reasoning part. */
  partial(event: AgentEvent): ReplanUIChunk[] {
    const tag = event.meta?.planExecute;
    if (!event.message || (typeof tag === 'string' && PLANNING_TAGS.has(tag))) return [];
    const out: ReplanUIChunk[] = [];
    for (const block of event.message.content) {
      if (block.type === 'text' && block.text) out.push(...this.liveDelta(this.liveText, 'text', event.path, block.text));
      else if (block.type === 'reasoning' && block.reasoning)
        out.push(...this.liveDelta(this.liveReasoning, 'reasoning', event.path, block.reasoning));
    }
    return out;
  }

  /** Closes what is open and ends the message (the run ended, or stopped on an interrupt). */
  finish(): ReplanUIChunk[] {
    return [...this.closeAll(), { type: 'finish' }];
  }

  private closeAll(): ReplanUIChunk[] {
    const out: ReplanUIChunk[] = [];
    for (const path of new Set([...this.liveText.keys(), ...this.liveReasoning.keys()])) out.push(...this.closeLive(path));
    return out;
  }

  private planChunks(plan: unknown): ReplanUIChunk[] {
    this.revision++;
    const out: ReplanUIChunk[] = [{ type: 'data-plan', id: 'plan', data: { plan, revision: this.revision } }];
    for (const step of stepsOf(plan)) {
      const graph = step as { id?: unknown; task?: unknown; dependsOn?: unknown };
      if (typeof graph?.id !== 'string' || this.runningSteps.has(graph.id)) continue;
      const dependsOn = Array.isArray(graph.dependsOn) ? (graph.dependsOn as string[]) : [];
      out.push({
        type: 'data-step',
        id: `step-${graph.id}`,
        data: { id: graph.id, number: 0, step: graph.task, status: 'pending', dependsOn },
      });
    }
    return out;
  }

  private stepStarted(event: AgentEvent, step: unknown, number: number, stepId: string | undefined): ReplanUIChunk[] {
    const key = stepId ?? String(number);
    if (this.runningSteps.has(key) || event.partial) return [];
    this.runningSteps.add(key);
    return [{ type: 'data-step', id: `step-${key}`, data: { ...(stepId ? { id: stepId } : {}), number, step, status: 'running' } }];
  }

  private stepFinished(
    event: AgentEvent,
    executed: ExecutedStep | ExecutedGraphStep | undefined,
    number: number,
    stepId: string | undefined,
  ): ReplanUIChunk {
    // Graph mode appends the finished step to ExecutedSteps instead of writing ExecutedStep.
    const appended = Object.values(event.actions?.stateAppend ?? {})
      .flat()
      .find((item) => (item as ExecutedGraphStep)?.id === stepId) as ExecutedGraphStep | undefined;
    const done = executed ?? appended;
    const error = done?.error;
    const data: StepData = {
      ...(stepId ? { id: stepId } : {}),
      number,
      step: done?.step ?? event.meta?.step,
      status: error === undefined ? 'done' : 'failed',
      ...(done?.result !== undefined ? { result: done.result } : {}),
      ...(error !== undefined ? { error } : {}),
    };
    return { type: 'data-step', id: `step-${stepId ?? number}`, data };
  }

  private messageChunks(message: Message, path: string): Slot[] {
    const out: Slot[] = [];
    for (const block of message.content) {
      if (message.role === 'assistant' && block.type === 'reasoning' && block.reasoning) {
        const open = this.liveReasoning.get(path);
        if (open !== undefined) {
          this.liveReasoning.delete(path);
          out.push(undefined, undefined, { type: 'reasoning-end', id: open });
        } else {
          const id = `reasoning-${this.parts++}`;
          out.push({ type: 'reasoning-start', id }, { type: 'reasoning-delta', id, delta: block.reasoning }, { type: 'reasoning-end', id });
        }
      } else if (message.role === 'assistant' && block.type === 'text' && block.text) out.push(...this.textChunks(block.text, path));
      else if (block.type === 'tool_call')
        out.push({ type: 'tool-input-available', toolCallId: block.id, toolName: block.name, input: block.args, dynamic: true });
      else if (block.type === 'tool_result') {
        if (this.deniedCalls.has(block.toolCallId)) out.push({ type: 'tool-output-denied', toolCallId: block.toolCallId });
        else if (block.isError)
          out.push({ type: 'tool-output-error', toolCallId: block.toolCallId, errorText: outputText(block.output), dynamic: true });
        else out.push({ type: 'tool-output-available', toolCallId: block.toolCallId, output: block.output, dynamic: true });
      }
    }
    return out;
  }

  private textChunks(text: string, path: string): Slot[] {
    const open = this.liveText.get(path);
    if (open !== undefined) {
      // The replay's start and delta slots stay empty: the live stream sent them as deltas.
      this.liveText.delete(path);
      return [undefined, undefined, { type: 'text-end', id: open }];
    }
    const id = `text-${this.parts++}`;
    return [
      { type: 'text-start', id },
      { type: 'text-delta', id, delta: text },
      { type: 'text-end', id },
    ];
  }

  private liveDelta(open: Map<string, string>, type: 'text' | 'reasoning', path: string, delta: string): ReplanUIChunk[] {
    const current = open.get(path);
    if (current !== undefined) return [{ type: `${type}-delta`, id: current, delta }];
    const id = `${type}-${this.parts++}`;
    open.set(path, id);
    return [
      { type: `${type}-start`, id },
      { type: `${type}-delta`, id, delta },
    ];
  }

  private closeLive(path: string): ReplanUIChunk[] {
    const out: ReplanUIChunk[] = [];
    const text = this.liveText.get(path);
    if (text !== undefined) out.push({ type: 'text-end', id: text });
    const reasoning = this.liveReasoning.get(path);
    if (reasoning !== undefined) out.push({ type: 'reasoning-end', id: reasoning });
    this.liveText.delete(path);
    this.liveReasoning.delete(path);
    return out;
  }

  private interruptChunk(interrupt: Interrupt): ReplanUIChunk {
    if (interrupt.reason === 'approval' && interrupt.toolCallId) {
      this.approvalCalls.set(interrupt.id, interrupt.toolCallId);
      return { type: 'tool-approval-request', approvalId: interrupt.id, toolCallId: interrupt.toolCallId };
    }
    return {
      type: 'data-interrupt',
      id: `interrupt-${interrupt.id}`,
      data: { id: interrupt.id, reason: interrupt.reason, payload: interrupt.payload },
    };
  }

  /** A refused approval: the tool's result then shows as denied, as the AI SDK shows it. */
  private noteAnswers(values: Readonly<Record<string, unknown>>): void {
    for (const [id, value] of Object.entries(values)) {
      const call = this.approvalCalls.get(id);
      if (call !== undefined && approvalOf(value) === false) this.deniedCalls.add(call);
    }
  }
}

/** `meta.kind` of a compensation's call and result events (core's `compensation-ids`). */
const COMPENSATION = 'compensation';

/** A compensation's call (`running`) or result (`done`/`failed`) as its `data-compensation` part, never a tool part. */
function compensationChunks(message: Message, compensates: unknown): ReplanUIChunk[] {
  const out: ReplanUIChunk[] = [];
  for (const block of message.content) {
    if (block.type !== 'tool_call' && block.type !== 'tool_result') continue;
    const stored = block.type === 'tool_call' ? block.id : block.toolCallId;
    const callId = typeof compensates === 'string' ? compensates : stored.replace(/:compensate$/, '');
    const tool = block.name;
    const data: CompensationData =
      block.type === 'tool_call'
        ? { callId, tool, status: 'running' }
        : block.isError
          ? { callId, tool, status: 'failed', error: outputText(block.output) }
          : { callId, tool, status: 'done', output: block.output };
    out.push({ type: 'data-compensation', id: `compensation-${callId}`, data });
  }
  return out;
}

/**
 * The calls a compensation left alone because their result was never stored, each as a `skipped`
 * `data-compensation` part: from a replan's `compensation-skipped` event, or the report on the event
 * that closed a cancelled run (`meta.compensation`).
 */
function skippedChunks(event: AgentEvent): ReplanUIChunk[] {
  const meta = event.meta;
  const listed =
    meta?.kind === 'compensation-skipped'
      ? meta.skipped
      : event.actions?.invocationEnd
        ? (meta?.compensation as { skipped?: unknown } | undefined)?.skipped
        : undefined;
  if (!Array.isArray(listed)) return [];
  return listed.flatMap((c: { callId?: unknown; tool?: unknown }) =>
    typeof c?.callId === 'string' && typeof c.tool === 'string'
      ? [
          {
            type: 'data-compensation' as const,
            id: `compensation-${c.callId}`,
            data: { callId: c.callId, tool: c.tool, status: 'skipped' as const },
          },
        ]
      : [],
  );
}

const outputText = (output: unknown): string => (typeof output === 'string' ? output : (JSON.stringify(output) ?? String(output)));
