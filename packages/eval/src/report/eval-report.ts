import type { RunStatus, Usage } from '@replan/core';
import type { CriterionName, CriterionResult } from '../criteria/criterion-result.js';

/** One run of a case (a case runs `repeat` times). */
export interface CaseRunReport {
  /** 1-based: which repetition. */
  readonly attempt: number;
  readonly pass: boolean;
  /** The run's session: open it with `replan studio` or `replan show <id>`. Absent when the run could not start. */
  readonly sessionId?: string;
  readonly status?: RunStatus;
  readonly answer?: string;
  readonly criteria: readonly CriterionResult[];
  /** What its model calls cost (`RunResult.cost`); unpriced calls add nothing to it. */
  readonly cost: number;
  /** Its model calls without a price (the runner has no `prices` for their model): shown as "unpriced", never as $0. */
  readonly unpricedModelCalls: number;
  readonly usage: Usage;
  /** Its model calls (suite runs report them; `runEval` leaves them out). */
  readonly modelCalls?: number;
  readonly latencyMs: number;
  /** Why the run could not be judged (its runner threw, the session was not stored, …). */
  readonly error?: { readonly name: string; readonly message: string };
}

/** A criterion over a case's runs. */
export interface CriterionSummary {
  readonly criterion: CriterionName;
  /** Mean score over the runs. */
  readonly score: number;
  /** Share of runs that passed it. */
  readonly passRate: number;
  readonly pass: boolean;
  /** The first failing run's reason, else the last run's. */
  readonly reason: string;
}

/** How a case did over its runs. */
export interface CaseReport {
  readonly name: string;
  /** `passRate ≥ threshold`. */
  readonly pass: boolean;
  /** Share of its runs that passed every criterion. */
  readonly passRate: number;
  /** The share it needed (`passRate` of the case or set, default 1). */
  readonly threshold: number;
  readonly criteria: readonly CriterionSummary[];
  readonly runs: readonly CaseRunReport[];
  /** All its runs together. */
  readonly cost: number;
  readonly unpricedModelCalls: number;
  readonly usage: Usage;
  /** Mean wall-clock time of a run. */
  readonly latencyMs: number;
  readonly sessionIds: readonly string[];
}

/** What `runEval` returns: every case, and the totals. */
export interface EvalReport {
  readonly name: string;
  /** Every case passed. */
  readonly pass: boolean;
  readonly cases: readonly CaseReport[];
  readonly passed: number;
  readonly failed: number;
  readonly repeat: number;
  readonly cost: number;
  /** Model calls of all runs that had no price. */
  readonly unpricedModelCalls: number;
  readonly usage: Usage;
  /** Wall-clock time of the whole eval. */
  readonly durationMs: number;
  /** When it started (ms since the epoch). */
  readonly startedAt: number;
}
