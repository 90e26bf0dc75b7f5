/**
 * The JSON the studio's server sends its page. Shared by the server (`src/`) and the page
 * (`web/src/`): types only, nothing at run time.
 */

/** Where a session's last invocation stands, read from its stored events. */
export type SessionStatus =
  | 'running'
  | 'interrupted'
  | 'completed'
  | 'failed'
  | 'budget_exceeded'
  | 'max_iterations'
  | 'aborted'
  | 'blocked'
  | 'empty';

export interface TokenCount {
  readonly input: number;
  readonly output: number;
  readonly reasoning: number;
  /** Input tokens read from the provider's prompt cache (part of `input`). */
  readonly cached: number;
  /** Input tokens written to the provider's prompt cache (part of `input`). */
  readonly cacheWrite: number;
}

export interface SessionKeyView {
  readonly appName: string;
  readonly userId: string;
  readonly id: string;
}

/** What the page knows about the server: whether it can act, and for which apps. */
export interface StudioInfo {
  readonly readOnly: boolean;
  readonly runnerApps: readonly string[];
  /** Each runner's models, so the page can say which answer offline from a script. */
  readonly runners: readonly RunnerView[];
  readonly storeKind: string;
  /** How live updates reach the page for this store. */
  readonly live: string;
}

/** A runner the studio acts with, and the models its agents hold. */
export interface RunnerView {
  readonly app: string;
  /** `offline`: a `ScriptedModel` (canned answers from a script) or a `ReplayModel` (a recording): no provider is called. */
  readonly models: readonly { readonly id: string; readonly offline?: 'scripted' | 'replay' }[];
}

/** Apps and users to pick from (the store's `list` needs both). */
export interface Owners {
  readonly apps: readonly string[];
  readonly users: Readonly<Record<string, readonly string[]>>;
  /** How they were found, for the page to say. */
  readonly discovery: string;
}

export interface SessionRow extends SessionKeyView {
  readonly version: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly status: SessionStatus;
  readonly tokens: TokenCount;
  /** The first user input, shortened. */
  readonly preview: string;
}

export interface SessionListPage {
  readonly sessions: readonly SessionRow[];
  readonly nextCursor?: string;
}

export type StepStatus = 'pending' | 'running' | 'done' | 'failed';

export interface PlanStepView {
  /**
   * The same in every plan version: `id` in graph mode; for a linear step `n<stepNumber>` once it
   * ran or runs (a step still to run in the latest version: the number it will run as), and
   * `v<version>.<position>` for a step dropped before it ran (where it first appeared).
   */
  readonly key: string;
  readonly label: string;
  readonly dependsOn: readonly string[];
  readonly status: StepStatus;
  /** Tokens of the step's model calls (from the stored `usage`), when it made any. */
  readonly tokens?: TokenCount;
  readonly modelCalls?: number;
  /** What those calls cost, when the studio was given prices (`serveStudio({ prices })`); calls it cannot price add nothing. */
  readonly cost?: number;
}

/** One version of the plan: as the planner or replanner wrote it, with its steps' status until the next version. */
export interface PlanRevision {
  /** Index of the event that stored it. */
  readonly eventIndex: number;
  readonly author: string;
  readonly timestamp: number;
  readonly mode: 'linear' | 'graph';
  readonly steps: readonly PlanStepView[];
  /** Step labels this version added and dropped compared with the one before. */
  readonly added: readonly string[];
  readonly removed: readonly string[];
}

export interface InterruptView {
  readonly id: string;
  /**
   * Where it is answered, when not in this session: a child session's interrupt (an agent run as a
   * tool) is answered in its root session, under the id that carries the nesting (`<outer toolCallId>/<id>`).
   */
  readonly answerIn?: { readonly sessionId: string; readonly interruptId: string };
  readonly reason: string;
  /** The payload as pretty JSON text. */
  readonly payload: string;
  readonly toolName?: string;
  readonly eventIndex: number;
  readonly path: string;
}

/** An interrupt that waits for a person, in any session the studio can list. */
export interface OpenInterruptRow {
  readonly appName: string;
  readonly userId: string;
  readonly sessionId: string;
  readonly updatedAt: number;
  readonly interrupt: InterruptView;
  /** The payload on one line, shortened. */
  readonly summary: string;
}

/** The open interrupts across the apps and users the studio knows. */
export interface OpenInterruptsList {
  /** Newest first. */
  readonly interrupts: readonly OpenInterruptRow[];
  /** How many sessions were looked at. */
  readonly scanned: number;
  /** False when the look stopped at its limit (see `scanned`): older interrupts may be missing. */
  readonly complete: boolean;
  /** Apps the studio knows no user of (the store cannot list them): their interrupts cannot be looked for. */
  readonly appsWithoutUsers: readonly string[];
}

/** Amounts of a budget: tokens, cost, model calls and time in ms (only those the run limits). */
export interface BudgetAmountsView {
  readonly tokens?: number;
  readonly cost?: number;
  readonly modelCalls?: number;
  readonly timeMs?: number;
}

/** A run's budget as it ended (stored on its end event as `meta.budget`), when the run had limits. */
export interface RunBudgetView {
  readonly limits: BudgetAmountsView;
  readonly used: BudgetAmountsView;
  readonly left: BudgetAmountsView;
  /** With `onExhausted: 'answer'`: what was kept for the answer. */
  readonly reserve?: BudgetAmountsView;
  readonly onExhausted: 'stop' | 'answer';
}

/** A plan review's forecast against the budget (its payload's `forecast`). */
export interface PlanForecastView {
  readonly estimate: BudgetAmountsView;
  readonly available: BudgetAmountsView;
  readonly fits: boolean;
  readonly unestimated: number;
  readonly steps: number;
}

export interface SessionDigest {
  readonly key: SessionKeyView;
  readonly version: number;
  readonly status: SessionStatus;
  readonly tokens: TokenCount;
  /**
   * With `serveStudio({ prices })`: what the session's stored model calls cost, and how many it could
   * not price (stored without `meta.model`, or a model missing from the table).
   */
  readonly cost?: { readonly total: number; readonly unpricedModelCalls: number };
  readonly eventCount: number;
  readonly updatedAt: number;
  /** Agent paths that wrote events, in order of appearance. */
  readonly agents: readonly string[];
  readonly revisions: readonly PlanRevision[];
  readonly interrupts: readonly InterruptView[];
  /**
   * For a child session (an agent run as a tool): the session and tool call that run it, and the
   * root session of the chain — where its interrupts are answered and its run is resumed.
   */
  readonly parent?: { readonly sessionId: string; readonly toolCallId: string; readonly rootSessionId: string };
  readonly error?: { readonly name: string; readonly message: string };
  readonly output?: string;
  /** For a `blocked` session: which guardrail blocked it and why (its answer, if any, is withheld). */
  readonly blocked?: string;
  /** The last run's budget as it ended, when it had limits (`RunResult` has no budget; its end event does). */
  readonly budget?: RunBudgetView;
  /**
   * A run that completed with an answer from partial work (`limits.onExhausted: 'answer'`): the
   * steps it did not run, each as its text.
   */
  readonly partial?: { readonly notRun: readonly string[] };
  /**
   * For a `running` session whose store can tell (`SessionStore.leaseHolder`): the process holding
   * its run's lease (a child session's: its parent's), or `null` when none does — the run is queued,
   * or the process running it stopped without ending it (a crash), and `Resume` continues it.
   */
  readonly runner?: { readonly owner: string; readonly expiresAt: number } | null;
}

export interface EventRow {
  readonly index: number;
  readonly id: string;
  readonly author: string;
  readonly path: string;
  readonly depth: number;
  readonly timestamp: number;
  /** A short label: `plan`, `tool call`, `error`, … */
  readonly kind: string;
  /** One line of text (model or tool text, shortened). */
  readonly summary: string;
  readonly hasError: boolean;
  /** Set on an inner call of a code call: drawn one level below the code call. */
  readonly codeCall?: CodeCallMark;
}

export interface EventPage {
  readonly total: number;
  /**
   * How many of these events (of the agent asked for) are the runner's `cursor` events — where each
   * agent stands, kept for resume. They are in `total` and `rows` only when asked for (`cursors=show`).
   */
  readonly cursorEvents: number;
  readonly offset: number;
  readonly rows: readonly EventRow[];
}

/** An image or a file of a message or tool result: what it is; its bytes come from `/api/blobs/<blob>`. */
export interface MediaView {
  readonly kind: 'image' | 'file';
  readonly mediaType: string;
  readonly filename?: string;
  /** Its length in bytes, when known (a URL's is not). */
  readonly size?: number;
  /** The blob id (SHA-256, hex) when the store keeps its bytes. */
  readonly blob?: string;
  /** An http(s) URL the model was given instead of bytes (shown as text, never fetched by the page). */
  readonly url?: string;
  /** Whether the page shows it as an image (a raster type kept as a blob); else it offers a download. */
  readonly shown: boolean;
}

export type BlockView =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'media'; readonly media: MediaView }
  | { readonly type: 'reasoning'; readonly text: string }
  | {
      readonly type: 'tool_call';
      readonly id: string;
      readonly name: string;
      readonly args: string;
      /** A code call's program (its args are `{ program }`, `@replan/code`), cut at 20,000 characters. */
      readonly program?: string;
      /** How many characters of the program were cut off. */
      readonly programCut?: number;
    }
  | {
      readonly type: 'tool_result';
      readonly toolCallId: string;
      readonly name: string;
      readonly output: string;
      readonly isError: boolean;
      /** The images and files the tool returned (its output text names each with a placeholder). */
      readonly media?: readonly MediaView[];
    };

/** A compaction of an agent's context: what it summarised (its `tokens` are the summarizer's usage). */
export interface CompactionView {
  /** The agent's turns (model answers) the summary replaced, since the previous summary. */
  readonly turns: number;
  /** The estimated request size before and after, in tokens. */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** The summary the model is shown from then on. */
  readonly summary: string;
}

/** One memory an event recalled, reused or kept (its text is untrusted: shown as text). */
export interface MemoryEntryView {
  /** `fact`, `episode`, `plan`, … */
  readonly kind: string;
  readonly text: string;
  /** Where it came from: `session <id>`. */
  readonly from?: string;
  /** The store's score, or for a reused plan its 0–1 similarity. */
  readonly score?: number;
}

/** Long-term memory at one event: the memories recalled into a request, a plan reused, facts or a plan kept. */
export interface MemoryView {
  /** `Recalled 2 memories`, `Reused a past plan (adapted)`, `Kept 3 facts`, `Kept this run's plan`. */
  readonly heading: string;
  readonly entries: readonly MemoryEntryView[];
  /** Why memory was unavailable or not stored, when it was not. */
  readonly problem?: string;
}

export interface EventView {
  readonly index: number;
  readonly author: string;
  readonly path: string;
  readonly timestamp: number;
  readonly role?: string;
  readonly blocks: readonly BlockView[];
  readonly tokens?: TokenCount;
  readonly error?: { readonly name: string; readonly message: string };
  /** Set on a compaction event. */
  readonly compaction?: CompactionView;
  /** Set on a tool result a plan approval covered (plan–execute `review.grants`): the id of that plan review. */
  readonly grantedBy?: string;
  /** Set on an event of long-term memory (recall, reuse, consolidation, a kept plan). */
  readonly memory?: MemoryView;
  /** Set on an inner call of a code call (`meta.codeCall`): the code call's id and the call's number. */
  readonly codeCall?: CodeCallMark;
  /** Set on a code call's event: the calls its program made, in order (at most 500). */
  readonly innerCalls?: readonly InnerCallView[];
  /** How many inner calls were left out of `innerCalls`. */
  readonly innerCallsCut?: number;
}

/** Where an inner call of a code call belongs. */
export interface CodeCallMark {
  readonly id: string;
  readonly index: number;
}

/** One call a code call's program made, as the page nests it under the program. */
export interface InnerCallView {
  readonly index: number;
  readonly id: string;
  readonly name: string;
  /** Shortened. */
  readonly args: string;
  /** Shortened; absent while the call has no result (it runs, or waits for an approval). */
  readonly output?: string;
  readonly isError: boolean;
  /** The event of the call, for a link to its detail. */
  readonly eventIndex: number;
}

export interface StepDetail {
  readonly key: string;
  readonly label: string;
  readonly status: StepStatus;
  readonly events: readonly EventView[];
  readonly tokens: TokenCount;
  /** From the step's first event to its last. */
  readonly latencyMs: number;
  /** Tools the step ran (stored results), a code step's inner calls included. */
  readonly toolCalls: number;
  /** The step's result text, when it finished. */
  readonly result?: string;
}

/** The state as it was right after one event (time travel), by scope. */
export interface StateAt {
  readonly index: number;
  readonly app: Readonly<Record<string, unknown>>;
  readonly user: Readonly<Record<string, unknown>>;
  readonly session: Readonly<Record<string, unknown>>;
}

/** One event in full, with its JSON (shown as text). */
export interface EventDetail {
  readonly view: EventView;
  readonly json: string;
}

/** A change notification sent over the live stream. */
export interface LiveNotice {
  readonly version: number;
}
