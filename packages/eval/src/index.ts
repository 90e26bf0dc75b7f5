/**
 * `@replan/eval` — evalsets for replan agents. `defineEvalSet({ name, cases })` checks a set;
 * `runEval({ set, runner | makeRunner, concurrency, repeat })` runs each case in its own session
 * and judges it (tool trajectory, plan, answer — by value, pattern, function or an LLM judge —,
 * status, cost, latency); `renderTerminal`, `renderMarkdown` and `renderJUnit` print the report;
 * `replan eval <file>` runs a set in CI. `sessionToEvalCase` turns a stored session into a case
 * plus its recording, replayed offline with `ReplayModel` (docs/testing-and-evals.md).
 * @module
 */

// Eval sets and cases
export { defineEvalSet } from './set/define-eval-set.js';
export type { EvalSet } from './set/define-eval-set.js';
export type {
  EvalCase,
  EvalInput,
  CaseExpectations,
  TrajectoryMode,
  TrajectoryExpectation,
  ExpectedToolCall,
  PlanExpectation,
  AnswerExpectation,
  AnswerPredicate,
  JudgeExpectation,
} from './set/eval-case.js';
export { arg } from './matchers/arg-matcher.js';
export type { Matcher, ValueKind, SpecialMatcher } from './matchers/arg-matcher.js';

// Running and judging
export { runEval } from './run/run-eval.js';
export type { RunEvalOptions } from './run/run-eval.js';
export type { CriterionName, CriterionResult } from './criteria/criterion-result.js';
export { JUDGE_INSTRUCTION } from './criteria/judge-criterion.js';
export type { JudgeVerdict } from './criteria/judge-criterion.js';

// Reports
export type { EvalReport, CaseReport, CaseRunReport, CriterionSummary } from './report/eval-report.js';
export { renderTerminal } from './report/render-terminal.js';
export type { RenderTerminalOptions } from './report/render-terminal.js';
export { renderMarkdown } from './report/render-markdown.js';
export { renderJUnit } from './report/render-junit.js';

// From production to a test
export { sessionToEvalCase } from './production/session-to-eval-case.js';
export type { SessionEvalCase, SessionToEvalCaseOptions } from './production/session-to-eval-case.js';
export { readEvalCaseFile, readRecordingFile, writeEvalCaseFiles, EVAL_FILE_SCHEMA_VERSION } from './production/case-files.js';

// Task suites: deterministic domains, scored by outcome (docs/testing-and-evals.md, "Prove it on your model")
export { defineDomain } from './suites/domain.js';
export type { Domain } from './suites/domain.js';
export { defineSuite } from './suites/suite.js';
export type { Suite, AnySuite, SuiteTask, TaskExpectation, DeepPartial } from './suites/suite.js';
export type { TaskOracle, OracleStep, OracleTurn } from './suites/oracle.js';
export { runSuite, suiteSessionId } from './suites/run-suite.js';
export type { RunSuiteOptions, SuiteReport, SuiteRunRef } from './suites/run-suite.js';
export { oracleModel, SUITE_AGENT_KINDS } from './suites/suite-agent.js';
export type { SuiteAgentKind, SuiteAgentContext, SuiteAgentFactory } from './suites/suite-agent.js';
export { renderSuiteTable, renderSuiteMarkdown } from './suites/render-suite-table.js';
export { builtinSuites } from './suites/builtin/index.js';

// Errors
export { EvalInputError } from './errors.js';
export type { EvalInputErrorKind } from './errors.js';

// The `replan eval` command is `@replan/eval/cli` (the replan CLI of @replan/studio calls it).
