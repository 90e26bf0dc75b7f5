import type { Interrupt, RunStatus } from './agent-event.js';
import type { CompensationReport } from '../errors/compensation-error.js';
import type { GuardrailTrip } from './guardrail-verdict.js';
import type { Usage } from '../models/usage.js';
import type { UsageBreakdown } from '../models/usage-breakdown.js';

/** `meta.model` of a stored model response: which model produced its `usage` (`ChatModel.id`, `ChatModel.provider`). */
export interface ModelMeta {
  readonly id: string;
  readonly provider?: string;
}

/** Model usage of a whole session, every run and every process that worked on it included. */
export interface SessionTotals {
  readonly usage: Usage;
  /** Stored model responses that reported usage. */
  readonly modelCalls: number;
  /**
   * What the stored model responses cost, priced by the runner's `prices` from the model id each
   * response stored in `meta.model`. Responses that cannot be priced (stored without a model id,
   * e.g. by an older version, or by a model missing from the table) add nothing: see `unpricedModelCalls`.
   */
  readonly cost: number;
  /** Stored model responses left out of `cost`: no `meta.model`, or a model the price table lacks. */
  readonly unpricedModelCalls: number;
}

/** How a run ended. `result()` always resolves for a run that started; failures are in `status` and `error`. */
export interface RunResult {
  readonly status: RunStatus;
  /** The answer text (of the last `actions.final` of the invocation), when there is one. */
  readonly output: string | undefined;
  /** The structured answer, when the final agent produced one. */
  readonly structured?: unknown;
  /**
   * True when the answer was given from partial work because the budget ran low
   * (`limits.onExhausted: 'answer'`): the run completed, but `notRun` lists what it did not do.
   */
  readonly partial?: boolean;
  /** With `partial`: the steps not run (a plan–execute agent's plan steps, as written), in plan order. */
  readonly notRun?: readonly unknown[];
  readonly sessionId: string;
  readonly invocationId: string;
  /** Open interrupts to answer with `runner.resume({ values })` (status `interrupted`). */
  readonly interrupts: readonly Interrupt[];
  /** Tokens used by the model calls of this run (not of earlier runs of the session). */
  readonly usage: Usage;
  readonly modelCalls: number;
  /**
   * Tools this run started: the calls of its agents' models and the inner calls of code steps
   * (`@replan/code`); calls a resume answered from the log are not run again and not counted.
   */
  readonly toolCalls: number;
  /** What this run's model calls cost, priced by the runner's `prices` (and `limits.prices`); 0 when unpriced. */
  readonly cost: number;
  /** This run's model calls by agent path and by plan step (tokens, calls, cost, latency, tool calls). */
  readonly breakdown: UsageBreakdown;
  /**
   * Usage stored in the whole session: earlier runs and other processes included, and the child
   * sessions its agent tools (`agentTool`) ran.
   */
  readonly session: SessionTotals;
  readonly error?: Error;
  /** The guardrail that tripped, with its stage and reason (status `blocked`). */
  readonly guardrail?: GuardrailTrip;
  /** What compensation undid, when the run was cancelled or aborted with `compensate: true` (see `CompensationReport`). */
  readonly compensation?: CompensationReport;
}
