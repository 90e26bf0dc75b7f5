import {
  addUsage,
  type ChatModel,
  emptyUsage,
  InMemorySessionStore,
  type PriceTable,
  type RunResult,
  Runner,
  type SessionStore,
  type Usage,
} from '@replan/core';
import pLimit from 'p-limit';
import { EvalInputError } from '../errors.js';
import type { CriterionResult } from '../criteria/criterion-result.js';
import { failed, passed } from '../criteria/criterion-result.js';
import type { CaseReport, CaseRunReport, EvalReport } from '../report/eval-report.js';
import { failedRun } from '../run/case-run.js';
import { caseReportOf, evalReportOf } from '../run/run-eval.js';
import { judgeFacts, judgeState } from './score-task.js';
import { checkSuite, type Suite, type SuiteTask } from './suite.js';
import { oracleModel, type SuiteAgentFactory, type SuiteAgentKind, suiteAgent } from './suite-agent.js';

/** Which run a model is asked for (e.g. to replay that run's recording). */
export interface SuiteRunRef {
  readonly suite: string;
  readonly task: string;
  readonly agent: string;
  readonly attempt: number;
  readonly sessionId: string;
}

export interface RunSuiteOptions<Db> {
  readonly suite: Suite<Db>;
  /** A built-in agent kind, or your own agent built per run. */
  readonly agent: SuiteAgentKind | { readonly name: string; readonly build: SuiteAgentFactory };
  /** The model: one for every run, or one per run (e.g. a `ReplayModel` of that run's recording). Give this or `oracle`. */
  readonly model?: ChatModel | ((run: SuiteRunRef) => ChatModel | Promise<ChatModel>);
  /** Run each task's scripted oracle instead of a model (built-in agent kinds only): proves the tasks and scorers, not a model. */
  readonly oracle?: boolean;
  /** Runs of each task (default 1): pass^k needs k ≥ 2. */
  readonly repeat?: number;
  /** The most runs at once (default 1). */
  readonly concurrency?: number;
  /** Where the runs' sessions are kept (default: in memory): a `FileSessionStore` keeps a recording to replay offline. */
  readonly sessionStore?: SessionStore;
  /** Prices per model id, for cost. */
  readonly prices?: PriceTable;
  readonly signal?: AbortSignal;
  /** Told after each run is scored (for progress output). */
  readonly onRun?: (task: string, run: CaseRunReport) => void;
}

/** How one agent did on one suite. */
export interface SuiteReport {
  readonly suite: string;
  readonly agent: string;
  readonly repeat: number;
  /** Share of all runs that passed. */
  readonly success: number;
  /** Share of tasks whose every run passed (pass^k with k = repeat). */
  readonly passK: number;
  readonly modelCalls: number;
  /** Mean wall-clock time of a run. */
  readonly latencyMs: number;
  /** Every task as a case (with its runs), for `renderMarkdown` / `renderJUnit`; a task that fails its schema is a failed case. */
  readonly report: EvalReport;
}

/** Most resumes of one run (each answers the approvals it stopped on). */
const MAX_APPROVAL_ROUNDS = 20;

/** The app name of a suite's sessions. */
export const suiteAppName = (suite: string) => `replan-suite-${suite}`;
/** The user id of every suite session. */
export const SUITE_USER_ID = 'suite';
/** The session id of one run: stable, so a recording can be found again. */
export const suiteSessionId = (suite: string, task: string, agent: string, attempt: number) => `${suite}.${task}.${agent}.${attempt}`;

function positiveInteger(name: string, value: number | undefined): number {
  if (value === undefined) return 1;
  if (!Number.isInteger(value) || value < 1) throw new EvalInputError('set', `runSuite: ${name} must be a whole number ≥ 1, not ${value}.`);
  return value;
}

/** Runs one task once: fresh database, the agent, approvals answered as the task says; then scores it. */
async function runTask<Db>(
  options: RunSuiteOptions<Db>,
  task: SuiteTask<Db>,
  attempt: number,
  store: SessionStore,
): Promise<CaseRunReport> {
  const { suite } = options;
  const kind = typeof options.agent === 'string' ? options.agent : undefined;
  const agentName = kind ?? (options.agent as { name: string }).name;
  const sessionId = suiteSessionId(suite.name, task.id, agentName, attempt);
  const started = performance.now();
  let modelCalls = 0;
  let usage: Usage = emptyUsage();
  let cost = 0;
  try {
    const db = suite.domain.db();
    const tools = suite.domain.tools(db);
    const model =
      options.oracle && kind
        ? oracleModel(kind, task.oracle)
        : typeof options.model === 'function'
          ? await options.model({ suite: suite.name, task: task.id, agent: agentName, attempt, sessionId })
          : (options.model as ChatModel);
    const context = { model, tools, policy: suite.domain.policy };
    const agent = kind ? suiteAgent(kind, context) : (options.agent as { build: SuiteAgentFactory }).build(context);
    const runner = new Runner({
      agent,
      appName: suiteAppName(suite.name),
      sessionStore: store,
      ...(options.prices ? { prices: options.prices } : {}),
    });
    const common = { userId: SUITE_USER_ID, sessionId, ...(options.signal ? { signal: options.signal } : {}) };
    const account = (r: RunResult) => {
      modelCalls += r.modelCalls;
      usage = addUsage(usage, r.usage);
      cost += r.cost;
      return r;
    };
    let result = account(await runner.run({ ...common, input: `Policy:\n${suite.domain.policy}\n\nRequest: ${task.request}` }).result());
    for (let round = 0; result.status === 'interrupted' && round < MAX_APPROVAL_ROUNDS; round++) {
      const others = result.interrupts.filter((i) => i.reason !== 'approval');
      if (others.length) break;
      const approvals = new Map(
        result.interrupts.map((i) => [i.id, typeof task.approve === 'function' ? task.approve(i) : (task.approve ?? true)]),
      );
      result = account(await runner.resume({ ...common, approvals: Object.fromEntries(approvals) }).result());
    }
    const criteria: CriterionResult[] = [
      result.status === 'completed'
        ? passed('status', 'completed')
        : failed('status', `the run ended ${result.status}${result.error ? `: ${result.error.message}` : ''}`),
    ];
    const state = judgeState(task.expect.db, db);
    if (state) criteria.push(state);
    const facts = judgeFacts(task.expect.answerIncludes, result.output);
    if (facts) criteria.push(facts);
    return {
      attempt,
      pass: criteria.every((c) => c.pass),
      sessionId,
      status: result.status,
      ...(result.output !== undefined ? { answer: result.output } : {}),
      criteria,
      cost,
      unpricedModelCalls: result.session.unpricedModelCalls,
      usage,
      modelCalls,
      latencyMs: performance.now() - started,
      ...(result.status === 'failed' && result.error ? { error: { name: result.error.name, message: result.error.message } } : {}),
    };
  } catch (error) {
    return { ...failedRun(attempt, error, performance.now() - started, sessionId), modelCalls, usage, cost };
  }
}

const mean = (values: readonly number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);

/**
 * Runs every task of a suite with one agent (`repeat` times each, at most `concurrency` at once),
 * each run on a fresh database in its own session, and scores each run: it completed, the final
 * database is as expected, the answer has the facts. A task that fails its schema, a model that
 * errors, a tool that throws: each is a failed task in the report, and the suite goes on.
 */
export async function runSuite<Db>(options: RunSuiteOptions<Db>): Promise<SuiteReport> {
  const repeat = positiveInteger('repeat', options.repeat);
  const concurrency = positiveInteger('concurrency', options.concurrency);
  if (!options.oracle && options.model === undefined)
    throw new EvalInputError('set', 'runSuite needs a model (or oracle: true to run the scripted oracles).');
  if (options.oracle && typeof options.agent !== 'string')
    throw new EvalInputError(
      'set',
      'runSuite: oracle runs need a built-in agent kind (react, plan-execute or graph); your own agent needs a model.',
    );
  const { suite, invalid } = checkSuite(options.suite);
  const agentName = typeof options.agent === 'string' ? options.agent : options.agent.name;
  const store = options.sessionStore ?? new InMemorySessionStore();
  const startedAt = Date.now();
  const started = performance.now();
  const limit = pLimit(concurrency);
  const tasks: CaseReport[] = await Promise.all(
    suite.tasks.map(async (task) => {
      const runs = await Promise.all(
        Array.from({ length: repeat }, (_, i) =>
          limit(async () => {
            const run = await runTask({ ...options, suite }, task, i + 1, store);
            options.onRun?.(task.id, run);
            return run;
          }),
        ),
      );
      return caseReportOf(task.id, 1, runs);
    }),
  );
  const bad = invalid.map((t) =>
    caseReportOf(t.id, 1, [failedRun(1, new EvalInputError('set', `the task fails its schema: ${t.error}`), 0)]),
  );
  const cases = [...tasks, ...bad];
  const runs = cases.flatMap((c) => c.runs);
  return {
    suite: suite.name,
    agent: agentName,
    repeat,
    success: runs.length ? runs.filter((r) => r.pass).length / runs.length : 0,
    passK: cases.length ? cases.filter((c) => c.runs.every((r) => r.pass)).length / cases.length : 0,
    modelCalls: runs.reduce((n, r) => n + (r.modelCalls ?? 0), 0),
    latencyMs: mean(runs.map((r) => r.latencyMs)),
    report: evalReportOf(`${suite.name} · ${agentName}`, cases, repeat, performance.now() - started, startedAt),
  };
}
