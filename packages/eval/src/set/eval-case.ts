import type { ChatModel, ContentBlock, FileBlock, ImageBlock, Message, RunStatus } from '@replan/core';
import type { Matcher } from '../matchers/arg-matcher.js';

/** How the agent's tool calls are compared with the expected ones. */
export type TrajectoryMode =
  /** The same calls, in the same order, and no others. */
  | 'exact'
  /** The expected calls appear in this order; other calls may come between them. */
  | 'in-order'
  /** Each expected call appears (each matched by a different call), in any order; other calls may come too. */
  | 'any-order';

/** One expected tool call. Tool-call ids are never compared (they change from run to run). */
export interface ExpectedToolCall {
  readonly name: string;
  /**
   * The arguments, field by field (see `Matcher`; a field the agent passes that is not listed fails
   * the match — list it as `arg.ignore` to skip it). Omitted or `'ignore'`: not compared.
   */
  readonly args?: Readonly<Record<string, Matcher>> | 'ignore';
}

export interface TrajectoryExpectation {
  readonly mode: TrajectoryMode;
  readonly calls: readonly ExpectedToolCall[];
}

/** Checks on the plans of a plan–execute agent (read from the run's events). */
export interface PlanExpectation {
  /** Each must match a step of some plan the run wrote (a string: contained, case-insensitive). */
  readonly includes?: readonly (string | RegExp)[];
  /** The most plan steps the run may execute. */
  readonly maxSteps?: number;
  /** The most times the replanner may revise the plan. */
  readonly maxReplans?: number;
}

/** An LLM judge: a chat model asked whether the answer meets the rubric (a JSON verdict). */
export interface JudgeExpectation {
  readonly judge: {
    /** What a good answer is, in plain words. */
    readonly rubric: string;
    /** The judge (default: the set's `judge`). */
    readonly model?: ChatModel;
    /** The lowest passing score (0..1). Without it, the judge's own `pass` decides. */
    readonly threshold?: number;
  };
}

/** A function of the answer: `true` passes (it may be async). */
export type AnswerPredicate = (answer: string) => boolean | Promise<boolean>;

/** The answer: equal (trimmed), matched by a pattern, accepted by a function, or judged by a model. */
export type AnswerExpectation = string | RegExp | AnswerPredicate | JudgeExpectation;

/** What a case's run must do. Give at least one. */
export interface CaseExpectations {
  readonly trajectory?: TrajectoryExpectation;
  readonly plan?: PlanExpectation;
  readonly answer?: AnswerExpectation;
  /** How the run must end (e.g. `'completed'`). */
  readonly status?: RunStatus;
  /** The most the run may cost (`RunResult.cost`: give the `Runner` its `prices`). */
  readonly maxCost?: number;
  /** The most wall-clock milliseconds the run may take. */
  readonly maxLatencyMs?: number;
}

/** The input of a case: text, a user message, or content blocks (as `runner.run({ input })` takes). */
export type EvalInput = string | Message | readonly ContentBlock[];

/** One case of an eval set: an input, and what the agent must do with it. */
export interface EvalCase {
  /** Unique in its set; names the case in reports (and the JUnit test case). */
  readonly name: string;
  readonly input: EvalInput;
  /**
   * Images and files sent with the input, after its content (e.g. `[await imageFromFile('invoice.png')]`):
   * the agent gets them as a run input's content blocks would be, and reports name them by type.
   */
  readonly attachments?: readonly (ImageBlock | FileBlock)[];
  /** The session id of its run (repeats add `-2`, `-3`, …). Default: a new id per run. */
  readonly sessionId?: string;
  /** The initial state of the case's session. */
  readonly state?: Readonly<Record<string, unknown>>;
  /** The user the session belongs to (default: the set's `userId`, else `'eval'`). */
  readonly userId?: string;
  /** The share of repeated runs that must pass, 0..1 (default: the set's, else 1). */
  readonly passRate?: number;
  readonly expect: CaseExpectations;
}
