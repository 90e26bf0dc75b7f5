// The options of `Runner`, `run` and `resume`: a file of their own so that the runner's helpers can
// name them without importing the runner (which imports them).
import type { Agent } from '../invocation/agent.js';
import type { RunLimits } from '../invocation/run-limits.js';
import type { ContentBlockInput } from '../messages/content-block.js';
import type { Message } from '../messages/message.js';
import type { PriceTable } from '../models/model-prices.js';
import type { ObserverErrorHandler } from '../observe/observer-hub.js';
import type { RunObserver } from '../observe/run-observer.js';
import type { SessionStore } from '../sessions/session-store.js';
import type { ApprovalAnswer } from '../tools/approval-answer.js';

export interface RunnerOptions {
  readonly agent: Agent;
  readonly appName: string;
  /** Where sessions are kept (default: a new `InMemorySessionStore`). */
  readonly sessionStore?: SessionStore;
  /** Event and invocation ids (default: random UUIDs). */
  readonly generateId?: () => string;
  /** See every run's lifecycle (agents, model and tool calls, interrupts); e.g. `openTelemetry()` from `@replan/otel`. */
  readonly observers?: readonly RunObserver[];
  /** Told once when an observer throws (it is then ignored); default: `console.warn`. */
  readonly onObserverError?: ObserverErrorHandler;
  /** Prices per model id: `RunResult.cost`, the breakdown and `limits.maxCost` use them (`limits.prices` overrides). */
  readonly prices?: PriceTable;
  /**
   * How long a run's lease on its session lasts unless renewed (default 30 s); it is renewed
   * every third of that. A crashed run's session can be resumed elsewhere once it expired.
   */
  readonly leaseMs?: number;
  /** This runner's identity in leases (default `${hostname}:${pid}:${random}`). */
  readonly owner?: string;
}

/** What `run` and `resume` share. */
export interface CommonRunOptions {
  readonly userId: string;
  readonly signal?: AbortSignal;
  readonly limits?: RunLimits;
  /** Stream model output as partial events (`event.partial`), never stored. */
  readonly stream?: boolean;
}

export interface RunOptions extends CommonRunOptions {
  /** An existing session to continue, or the id for a new one (default: a new random id). */
  readonly sessionId?: string;
  /** Text, a user message, or content blocks (an image or file may carry its bytes as `data`). */
  readonly input: string | Message | readonly ContentBlockInput[];
  /** Initial state of a new session (ignored for an existing one). */
  readonly state?: Readonly<Record<string, unknown>>;
  /**
   * The session's last run stopped on interrupts nobody answered (e.g. an approval): without this
   * the run is refused with a `ResumeError` of kind `open_interrupts`. `true` closes them first — stored, each open
   * tool call given the error result "not approved: superseded by a new message" — then runs.
   */
  readonly abandon?: boolean;
}

/** Which session `runner.pending` reads. */
export interface PendingOptions {
  readonly userId: string;
  readonly sessionId: string;
}

export interface ResumeOptions extends CommonRunOptions {
  readonly sessionId: string;
  /**
   * Answers to open interrupts, by interrupt id (see `RunResult.interrupts`). An approval
   * interrupt's value must be an `ApprovalAnswer` (else a `ResumeError` of kind `invalid_value`).
   */
  readonly values?: Readonly<Record<string, unknown>>;
  /** Answers to approval interrupts (`reason: 'approval'`), typed; merged with `values` (an id in both is refused). */
  readonly approvals?: Readonly<Record<string, ApprovalAnswer>>;
}

/** Which session `runner.cancel` cancels, and whether to undo its finished calls (`tool({ compensate })`). */
export interface CancelOptions {
  readonly userId: string;
  readonly sessionId: string;
  /** Undo the invocation's finished compensable calls, in reverse order of completion (default `false`). */
  readonly compensate?: boolean;
}
