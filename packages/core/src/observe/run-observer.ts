import type { Interrupt, RunStatus } from '../events/agent-event.js';
import type { Message } from '../messages/message.js';
import type { FinishReason, ModelRequest, ModelResponse } from '../models/chat-model.js';
import type { Usage } from '../models/usage.js';
import type { RunResult } from '../events/run-result.js';

/** Labels a run shares with every lifecycle event it reports. */
interface RunScope {
  readonly appName: string;
  readonly userId: string;
  readonly sessionId: string;
  readonly invocationId: string;
  /** `Date.now()` when it happened. */
  readonly time: number;
}

/** A run (or resume) begins. */
export interface RunStartInfo extends RunScope {
  readonly kind: 'run-start';
  /** Name of the root agent. */
  readonly agent: string;
  /** True for `runner.resume(...)`. */
  readonly resumed: boolean;
  /** The user's input (a new run only). */
  readonly input?: Message;
  /**
   * What observers stored with the invocation's first run (`RunObserver.carry`), read back from the
   * session: a resume in another process continues the same trace from it.
   */
  readonly carried?: Readonly<Record<string, string>>;
  /**
   * Set when this run is an agent run as a tool (`agentTool`) in a child session: the tool call of
   * the parent run that runs it. Its usage is also in the parent run's totals, so sum `run-end`
   * usage over runs without a `parent` only.
   */
  readonly parent?: RunParent;
}

/** The tool call of a parent run that runs a child session's agent (`agentTool`). */
export interface RunParent {
  readonly sessionId: string;
  readonly invocationId: string;
  /** The agent run of the parent that made the tool call. */
  readonly agentRunId: string;
  readonly toolCallId: string;
  readonly toolName: string;
}

/** A run (or resume) ended; `result` is what `run.result()` resolves to. */
export interface RunEndInfo extends RunScope {
  readonly kind: 'run-end';
  readonly status: RunStatus;
  readonly usage: Usage;
  readonly cost: number;
  /** Absent when the run could not start (e.g. its input was not stored). */
  readonly result?: RunResult;
  readonly error?: Error | undefined;
}

/** Where in the agent tree something happens. */
export interface AgentScope extends RunScope {
  /** Unique id of this agent run (parents and children refer to it). */
  readonly agentRunId: string;
  readonly agent: string;
  /** The agent's place in the tree, e.g. `root/plan_execute/executor/b`. */
  readonly path: string;
  readonly branch?: string | undefined;
  /** The id of the work label this run is under (`ctx.withLabel`; plan–execute: the plan step's id or number). */
  readonly label?: string | undefined;
}

/** An agent starts running (once per run of the agent: a loop's children start once per iteration). */
export interface AgentStartInfo extends AgentScope {
  readonly kind: 'agent-start';
  /** The enclosing agent run, absent for the root agent. */
  readonly parentAgentRunId?: string;
  /** `plan` for planner and replanner turns, `invoke_agent` otherwise. */
  readonly operation: 'invoke_agent' | 'plan';
}

export interface AgentEndInfo extends AgentScope {
  readonly kind: 'agent-end';
  readonly durationMs: number;
  /** Set when the agent's run threw (interrupts and aborts included: see `error.name`). */
  readonly error?: Error | undefined;
}

export interface ModelCallStartInfo extends AgentScope {
  readonly kind: 'model-call-start';
  /** Unique id of this call. */
  readonly callId: string;
  readonly model: string;
  /** `ChatModel.provider` when the model names one. */
  readonly provider?: string | undefined;
  readonly request: ModelRequest;
  /** Measures the request (on demand: most observers never need it). */
  readonly requestSize: () => RequestSize;
}

/** How big a model request is: characters sent (text, tool calls and results, tool specs) and a token estimate. */
export interface RequestSize {
  readonly chars: number;
  /** About 4 characters a token, rounded up: what `limits.maxCost` prices before a call. */
  readonly estimatedInputTokens: number;
}

/**
 * A model call's end. `model` and `provider` name the model that answered: the called model's, or,
 * when it handed the request on (`fallbackModel`), the answering model's (`response.model`).
 */
export interface ModelCallEndInfo extends Omit<ModelCallStartInfo, 'kind'> {
  readonly kind: 'model-call-end';
  readonly latencyMs: number;
  readonly response?: ModelResponse | undefined;
  readonly usage?: Usage | undefined;
  readonly finishReason?: FinishReason | undefined;
  /** Priced by the runner's `prices` (0 when the model has no price). */
  readonly cost: number;
  readonly error?: Error | undefined;
}

export interface ToolCallStartInfo extends AgentScope {
  readonly kind: 'tool-call-start';
  readonly toolName: string;
  readonly toolCallId: string;
  readonly args: unknown;
  /**
   * Set when this call is a compensation (`tool({ compensate })`, run by `run.abort({ compensate })`,
   * `runner.cancel` or a replan that drops steps): the id of the call it undoes. Its own
   * `toolCallId` is the stored `<callId>:compensate`.
   */
  readonly compensates?: string | undefined;
}

export interface ToolCallEndInfo extends Omit<ToolCallStartInfo, 'kind'> {
  readonly kind: 'tool-call-end';
  readonly latencyMs: number;
  readonly output?: unknown | undefined;
  /** The tool's output is an error message sent back to the model. */
  readonly isError: boolean;
  /** The tool threw (the model sees `output`). */
  readonly error?: Error | undefined;
  /** The call stopped for a human (approval or `ctx.interrupt`): it runs again on resume. */
  readonly interrupted?: boolean | undefined;
}

/**
 * An agent starts summarising older turns of its context (`compaction`). The summarizer's model
 * call follows, reported as a model call of the same agent run.
 */
export interface CompactionStartInfo extends AgentScope {
  readonly kind: 'compaction-start';
  /** Unique id of this compaction. */
  readonly compactionId: string;
  /** The summarizer model's id. */
  readonly model: string;
  /** The estimated size of the request that set it off, in tokens. */
  readonly tokensBefore: number;
}

export interface CompactionEndInfo extends Omit<CompactionStartInfo, 'kind'> {
  readonly kind: 'compaction-end';
  readonly latencyMs: number;
  /** The estimated size of the rebuilt request, in tokens (absent when it failed). */
  readonly tokensAfter?: number | undefined;
  /** The summary the model is shown from now on (as stored in `actions.compaction`). */
  readonly summary?: string | undefined;
  /** The summarizer's usage (also in the run's totals). */
  readonly usage?: Usage | undefined;
  /** The summarizer call's cost by the runner's `prices` (0 when unpriced). */
  readonly cost: number;
  /** Set when it failed (a `CompactionError`, an abort or a budget). */
  readonly error?: Error | undefined;
}

/** The run stopped for a human: `interrupts` are open until `runner.resume({ values })`. */
export interface InterruptInfo extends RunScope {
  readonly kind: 'interrupt';
  readonly interrupts: readonly Interrupt[];
}

/**
 * `runner.cancel` acted on the invocation. A run of it going on in this process was aborted with
 * `compensate`: this comes after that run's compensations and `run-end`. A stopped invocation is
 * closed now (also one just aborted without `compensate`): this comes after a `run-start` with
 * `resumed: true`, before its compensations (with `compensate`) and `run-end`.
 */
export interface CancelInfo extends RunScope {
  readonly kind: 'cancel';
  /** Asked to undo the finished calls (`runner.cancel({ compensate: true })`). */
  readonly compensate: boolean;
  /** True when a run going on in this process was aborted (and undone); false when a stopped invocation is closed. */
  readonly running: boolean;
}

/** A resume continues the invocation (after `run-start` with `resumed: true`). */
export interface ResumeInfo extends RunScope {
  readonly kind: 'resume';
  readonly values: Readonly<Record<string, unknown>>;
}

export type RunLifecycleEvent =
  | RunStartInfo
  | RunEndInfo
  | AgentStartInfo
  | AgentEndInfo
  | ModelCallStartInfo
  | ModelCallEndInfo
  | ToolCallStartInfo
  | ToolCallEndInfo
  | CompactionStartInfo
  | CompactionEndInfo
  | InterruptInfo
  | ResumeInfo
  | CancelInfo;

/**
 * One member of `RunLifecycleEvent` by its `kind`: `LifecycleInfo<'model-call-end'>` is what
 * `onModelCallEnd` receives. One generic instead of a named type per member keeps the surface small.
 */
export type LifecycleInfo<K extends RunLifecycleEvent['kind']> = Extract<RunLifecycleEvent, { readonly kind: K }>;

/**
 * Sees a run's lifecycle as it happens (`new Runner({ observers: [...] })`). Every method is
 * optional and called synchronously; observers never change the run. One that throws (or returns a
 * rejected promise) is reported once — to the runner's `onObserverError`, else `console.warn` — and
 * not called again.
 */
export interface RunObserver {
  onRunStart?(info: RunStartInfo): void;
  onRunEnd?(info: RunEndInfo): void;
  onAgentStart?(info: AgentStartInfo): void;
  onAgentEnd?(info: AgentEndInfo): void;
  onModelCallStart?(info: ModelCallStartInfo): void;
  onModelCallEnd?(info: ModelCallEndInfo): void;
  onToolCallStart?(info: ToolCallStartInfo): void;
  onToolCallEnd?(info: ToolCallEndInfo): void;
  onCompactionStart?(info: CompactionStartInfo): void;
  onCompactionEnd?(info: CompactionEndInfo): void;
  onInterrupt?(info: InterruptInfo): void;
  onResume?(info: ResumeInfo): void;
  onCancel?(info: CancelInfo): void;
  /**
   * Called once when a new invocation starts (after `onRunStart`): string pairs to keep with it
   * (stored in the input event's `meta.observe`), handed back as `RunStartInfo.carried` when the
   * invocation is resumed — e.g. a trace context, so a resume in another process joins the trace.
   */
  carry?(info: RunStartInfo): Readonly<Record<string, string>> | undefined;
}
