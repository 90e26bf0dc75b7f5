import type { GuardrailTrip } from './guardrail-verdict.js';
import type { Message } from '../messages/message.js';
import type { Usage } from '../models/usage.js';

/** A question a run stopped on, waiting for a human (or another system) to answer via `resume`. */
export interface Interrupt {
  /** Stable id; answer it with `runner.resume({ values: { [id]: value } })`. */
  readonly id: string;
  /** Why the run stopped: `'approval'` for `needsApproval` tools, else what the tool passed. */
  readonly reason: string;
  readonly payload: unknown;
  /** The tool call that asked, when a tool asked. */
  readonly toolCallId?: string;
  readonly toolName?: string;
  /**
   * The path of the agent whose tool asked. Inside an agent run as a tool (`agentTool`) this is
   * the nested path (`root/executor/<tool>/<inner agent>`), so a UI attributes it to the inner agent.
   */
  readonly path?: string;
}

/** The structured answer of an agent, on its last message event. */
export interface FinalAnswer {
  /** The answer text. */
  readonly text: string;
  /** A structured answer (`outputSchema`, or a plan-execute `respond` call), when there is one. */
  readonly structured?: unknown;
  /** The answer was given from partial work when the budget ran low (`limits.onExhausted: 'answer'`). */
  readonly partial?: boolean;
  /** With `partial`: the work not done (a plan–execute agent's steps not run), as the agent wrote it. */
  readonly notRun?: readonly unknown[];
}

/**
 * How a run ended. `blocked`: a guardrail tripped (see `RunResult.guardrail`); like `completed`, it
 * is final — `resume` returns the stored result and runs nothing.
 */
export type RunStatus = 'completed' | 'interrupted' | 'max_iterations' | 'aborted' | 'failed' | 'budget_exceeded' | 'blocked';

/** One compaction of an agent's turn, as stored (`actions.compaction`). */
export interface CompactionRecord {
  /** The id of the last event of the agent's turn that the summary covers (with the summaries before it). */
  readonly through: string;
  /** The summarizer's text; shown to the model as quoted data. */
  readonly summary: string;
  /** The estimated request size before and after, in tokens. */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
}

/** What an event does besides carrying a message. */
export interface EventActions {
  /** Session state changes; keys are scoped by prefix (`app:`, `user:`, `temp:`, none). */
  readonly stateDelta?: Readonly<Record<string, unknown>>;
  /**
   * Items appended to array-valued state keys (session or `temp:` scope), applied after
   * `stateDelta`. Only the new items are stored, so a growing list (e.g. executed steps) costs
   * its new items per event instead of a rewrite of the whole list.
   */
  readonly stateAppend?: Readonly<Record<string, readonly unknown[]>>;
  /** Ends the enclosing `LoopAgent`. */
  readonly exitLoop?: boolean;
  readonly transferTo?: string;
  readonly interrupt?: Interrupt;
  /** Answers to interrupts, stored when a run is resumed with values. */
  readonly resumeValues?: Readonly<Record<string, unknown>>;
  /** A composite agent's cursor (sequence index, loop iteration, ...), read back on resume. */
  readonly agentState?: Readonly<Record<string, unknown>>;
  /** The agent's answer. */
  readonly final?: FinalAnswer;
  /**
   * A `ReActAgent` replaced the older part of its turn by a summary (`compaction`): its messages up
   * to and including the event `through` are shown as `summary` from then on. Context building
   * reads it, so a resumed or replayed run rebuilds the same context without summarising again.
   */
  readonly compaction?: CompactionRecord;
  /** Written by the runner when an invocation has finished for good (completed, max_iterations or blocked). */
  readonly invocationEnd?: {
    readonly status: RunStatus;
    readonly output?: string;
    /** The guardrail that blocked the run (status `blocked`). */
    readonly guardrail?: GuardrailTrip;
  };
}

export interface EventError {
  /** The error class name, e.g. `'MaxIterationsError'`. */
  readonly name: string;
  readonly message: string;
  readonly data?: unknown;
}

/** One entry of a session's log. Everything a run does is an event; the log is the checkpoint. */
export interface AgentEvent {
  readonly id: string;
  readonly invocationId: string;
  /** The agent's name, or `'user'` for user input. */
  readonly author: string;
  /** The agent's stable place in the tree, e.g. `plan_execute/executor`. */
  readonly path: string;
  /** Set inside `ParallelAgent` children: events of one branch are hidden from its siblings. */
  readonly branch?: string;
  /** Milliseconds since the epoch. */
  readonly timestamp: number;
  readonly message?: Message;
  readonly usage?: Usage;
  /** A streaming delta: shown to consumers, never stored. */
  readonly partial?: boolean;
  readonly error?: EventError;
  readonly actions?: EventActions;
  /** Free-form, JSON-serialisable labels (e.g. `{ kind: 'plan' }`, `{ stepId: 's1' }`). */
  readonly meta?: Readonly<Record<string, unknown>>;
}

/** An event's fields before the runtime stamps id, invocation, author, path and time on it. */
export type EventDraft = Omit<AgentEvent, 'id' | 'invocationId' | 'author' | 'path' | 'timestamp' | 'branch'> & {
  readonly author?: string;
};
