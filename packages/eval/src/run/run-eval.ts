import { addUsage, emptyUsage, type Runner, type Usage } from '@replan/core';
import pLimit from 'p-limit';
import { EvalInputError } from '../errors.js';
import type { CriterionName } from '../criteria/criterion-result.js';
import type { CaseReport, CaseRunReport, CriterionSummary, EvalReport } from '../report/eval-report.js';
import { defineEvalSet, type EvalSet } from '../set/define-eval-set.js';
import type { EvalCase } from '../set/eval-case.js';
import { failedRun, runCaseOnce } from './case-run.js';

/** How to run an eval set. Give `runner` or `makeRunner`. */
export interface RunEvalOptions {
  readonly set: EvalSet;
  /** One runner for every case (each run gets its own session in the runner's store). */
  readonly runner?: Runner;
  /**
   * A runner per run of a case (called once per repetition): e.g. with a `ReplayModel` of the
   * case's recording. Its store keeps the session, so `replan studio` can open it.
   */
  readonly makeRunner?: (evalCase: EvalCase, attempt: number) => Runner | Promise<Runner>;
  /** The most runs at once (default 1). */
  readonly concurrency?: number;
  /** Runs of each case (default 1): more give pass rates for flaky agents. */
  readonly repeat?: number;
  /** Stops the eval: runs in progress end `aborted`, runs not started fail as not run. */
  readonly signal?: AbortSignal;
  /** Told after each run is judged (for progress output). */
  readonly onRun?: (evalCase: EvalCase, run: CaseRunReport) => void;
}

function positiveInteger(name: string, value: number | undefined): number {
  if (value === undefined) return 1;
  if (!Number.isInteger(value) || value < 1) throw new EvalInputError('set', `runEval: ${name} must be a whole number ≥ 1, not ${value}.`);
  return value;
}

const mean = (values: readonly number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);
const sumUsage = (runs: readonly { usage: Usage }[]) => runs.reduce((total, run) => addUsage(total, run.usage), emptyUsage());

/** Each criterion over a case's runs, in the order the runs report them. */
function summarise(runs: readonly CaseRunReport[], threshold: number): CriterionSummary[] {
  const names: CriterionName[] = [];
  for (const run of runs) for (const c of run.criteria) if (!names.includes(c.criterion)) names.push(c.criterion);
  return names.map((criterion) => {
    const results = runs.map((run) => run.criteria.find((c) => c.criterion === criterion));
    const judged = results.filter((r) => r !== undefined);
    // A run that could not be judged counts as a failure of every criterion.
    const passRate = runs.length ? results.filter((r) => r?.pass).length / runs.length : 0;
    return {
      criterion,
      score: mean(results.map((r) => r?.score ?? 0)),
      passRate,
      pass: passRate >= threshold,
      reason: (judged.find((r) => !r.pass) ?? judged.at(-1))?.reason ?? '',
    };
  });
}

/** A case's report from its runs: it passes when the share of passing runs reaches `threshold`. */
export function caseReportOf(name: string, threshold: number, runs: readonly CaseRunReport[]): CaseReport {
  const passRate = runs.length ? runs.filter((r) => r.pass).length / runs.length : 0;
  return {
    name,
    pass: runs.length > 0 && passRate >= threshold,
    passRate,
    threshold,
    criteria: summarise(runs, threshold),
    runs,
    cost: runs.reduce((total, run) => total + run.cost, 0),
    unpricedModelCalls: runs.reduce((total, run) => total + run.unpricedModelCalls, 0),
    usage: sumUsage(runs),
    latencyMs: mean(runs.map((r) => r.latencyMs)),
    sessionIds: runs.flatMap((r) => (r.sessionId ? [r.sessionId] : [])),
  };
}

const caseReport = (evalCase: EvalCase, set: EvalSet, runs: readonly CaseRunReport[]): CaseReport =>
  caseReportOf(evalCase.name, evalCase.passRate ?? set.passRate ?? 1, runs);

/** The whole report from its cases' reports. */
export function evalReportOf(
  name: string,
  cases: readonly CaseReport[],
  repeat: number,
  durationMs: number,
  startedAt: number,
): EvalReport {
  const passed = cases.filter((c) => c.pass).length;
  return {
    name,
    pass: passed === cases.length,
    cases,
    passed,
    failed: cases.length - passed,
    repeat,
    cost: cases.reduce((total, c) => total + c.cost, 0),
    unpricedModelCalls: cases.reduce((total, c) => total + c.unpricedModelCalls, 0),
    usage: sumUsage(cases),
    durationMs,
    startedAt,
  };
}

/**
 * Runs every case of the set (`repeat` times each, at most `concurrency` runs at once), each run in
 * its own session, and judges each run on the case's criteria. Resolves with the report; a case
 * whose run throws is a failed case carrying the error, never a rejected eval. Rejects only on bad
 * options (an `EvalInputError` of kind `set`).
 */
export async function runEval(options: RunEvalOptions): Promise<EvalReport> {
  const set = defineEvalSet(options.set);
  const concurrency = positiveInteger('concurrency', options.concurrency);
  const repeat = positiveInteger('repeat', options.repeat);
  const { runner, makeRunner, signal } = options;
  if (!runner === !makeRunner) throw new EvalInputError('set', 'runEval needs either runner or makeRunner (one of them, not both).');
  const startedAt = Date.now();
  const started = performance.now();
  const limit = pLimit(concurrency);
  const runOnce = async (evalCase: EvalCase, attempt: number): Promise<CaseRunReport> => {
    if (signal?.aborted) return failedRun(attempt, new Error('not run: the eval was aborted'), 0);
    let caseRunner: Runner;
    try {
      caseRunner = runner ?? (await (makeRunner as NonNullable<typeof makeRunner>)(evalCase, attempt));
    } catch (error) {
      return failedRun(attempt, error, 0);
    }
    return runCaseOnce({ set, evalCase, attempt, runner: caseRunner, ...(signal ? { signal } : {}) });
  };
  const cases = await Promise.all(
    set.cases.map(async (evalCase) => {
      const runs = await Promise.all(
        Array.from({ length: repeat }, (_, i) =>
          limit(async () => {
            const run = await runOnce(evalCase, i + 1);
            options.onRun?.(evalCase, run);
            return run;
          }),
        ),
      );
      return caseReport(evalCase, set, runs);
    }),
  );
  return evalReportOf(set.name, cases, repeat, performance.now() - started, startedAt);
}
