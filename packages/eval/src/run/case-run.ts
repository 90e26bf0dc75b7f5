import type { AgentEvent, Runner, RunResult, Session } from '@replan/core';
import { emptyUsage } from '@replan/core/agent-kit';
import { judgeAnswerExpectation } from '../criteria/answer-criterion.js';
import type { CriterionResult } from '../criteria/criterion-result.js';
import { judgeCost } from '../criteria/cost-criterion.js';
import { judgeLatency } from '../criteria/latency-criterion.js';
import { judgePlan } from '../criteria/plan-criterion.js';
import { judgeStatus } from '../criteria/status-criterion.js';
import { judgeTrajectory } from '../criteria/trajectory-criterion.js';
import type { CaseRunReport } from '../report/eval-report.js';
import type { EvalSet } from '../set/define-eval-set.js';
import { caseInputText, caseRunInput } from '../set/case-input.js';
import type { EvalCase } from '../set/eval-case.js';
import { plansOfEvents, type RunObservation, toolCallsOfEvents } from './run-observation.js';

/** What one run of a case needs. */
export interface CaseRunInput {
  readonly set: EvalSet;
  readonly evalCase: EvalCase;
  readonly attempt: number;
  readonly runner: Runner;
  readonly signal?: AbortSignal;
}

/** The session id of a run: the case's (repeats suffixed `-2`, `-3`), else the runner makes one. */
function sessionIdOf(evalCase: EvalCase, attempt: number): string | undefined {
  if (!evalCase.sessionId) return undefined;
  return attempt === 1 ? evalCase.sessionId : `${evalCase.sessionId}-${attempt}`;
}

/** What the run did, read from its stored events (the invocation's only). */
function observe(evalCase: EvalCase, result: RunResult, session: Session | undefined, latencyMs: number): RunObservation {
  const events: AgentEvent[] = session ? session.events.filter((e) => e.invocationId === result.invocationId) : [];
  const { plans, executedSteps, replans } = plansOfEvents(events);
  return {
    input: caseInputText(evalCase),
    status: result.status,
    ...(result.guardrail ? { guardrail: result.guardrail } : {}),
    answer: result.output,
    toolCalls: toolCallsOfEvents(events),
    plans,
    executedSteps,
    replans,
    cost: result.cost,
    usage: result.usage,
    latencyMs,
    unpricedModelCalls: session ? result.session.unpricedModelCalls : 0,
  };
}

/** Judges a run on each criterion the case expects. */
async function judge(evalCase: EvalCase, set: EvalSet, run: RunObservation, signal?: AbortSignal): Promise<CriterionResult[]> {
  const e = evalCase.expect;
  const results: CriterionResult[] = [];
  if (e.trajectory) results.push(judgeTrajectory(e.trajectory, run));
  if (e.plan) results.push(judgePlan(e.plan, run));
  if (e.answer !== undefined) results.push(await judgeAnswerExpectation(e.answer, run, set.judge, signal));
  if (e.status) results.push(judgeStatus(e.status, run));
  if (e.maxCost !== undefined) results.push(judgeCost(e.maxCost, run));
  if (e.maxLatencyMs !== undefined) results.push(judgeLatency(e.maxLatencyMs, run));
  return results;
}

const errorOf = (error: unknown) =>
  error instanceof Error ? { name: error.name, message: error.message } : { name: 'Error', message: String(error) };

/**
 * Runs a case once in its own session and judges it. Never throws: a run that cannot start or
 * a runner that throws is a failed run carrying the error.
 */
export async function runCaseOnce({ set, evalCase, attempt, runner, signal }: CaseRunInput): Promise<CaseRunReport> {
  const userId = evalCase.userId ?? set.userId ?? 'eval';
  const sessionId = sessionIdOf(evalCase, attempt);
  const started = performance.now();
  let result: RunResult;
  try {
    result = await runner
      .run({
        userId,
        input: caseRunInput(evalCase),
        ...(sessionId ? { sessionId } : {}),
        ...(evalCase.state ? { state: evalCase.state } : {}),
        ...(signal ? { signal } : {}),
      })
      .result();
  } catch (error) {
    // The run did not start: no session was stored, so none is named.
    return failedRun(attempt, error, performance.now() - started);
  }
  const latencyMs = performance.now() - started;
  try {
    const session = await runner.sessionStore.get({ appName: runner.appName, userId, id: result.sessionId });
    const observation = observe(evalCase, result, session, latencyMs);
    const criteria = await judge(evalCase, set, observation, signal);
    // A run that failed inside (its agent threw) fails the case unless the case expects exactly that.
    const error = result.status === 'failed' && result.error ? errorOf(result.error) : undefined;
    return {
      attempt,
      pass: criteria.every((c) => c.pass) && (!error || evalCase.expect.status === 'failed'),
      sessionId: result.sessionId,
      status: result.status,
      ...(result.output !== undefined ? { answer: result.output } : {}),
      criteria,
      cost: result.cost,
      unpricedModelCalls: observation.unpricedModelCalls,
      usage: result.usage,
      latencyMs,
      ...(error ? { error } : {}),
    };
  } catch (error) {
    return failedRun(attempt, error, latencyMs, result.sessionId);
  }
}

/** A run that could not be judged: failed, with the error. */
export function failedRun(attempt: number, error: unknown, latencyMs: number, sessionId?: string): CaseRunReport {
  return {
    attempt,
    pass: false,
    ...(sessionId ? { sessionId } : {}),
    criteria: [],
    cost: 0,
    unpricedModelCalls: 0,
    usage: emptyUsage(),
    latencyMs,
    error: errorOf(error),
  };
}
