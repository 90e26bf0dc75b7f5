export { dbosRuns, DbosRuns } from './dbos-runs.js';
export type { DbosRunResult } from './dbos-runs.js';
export type { DbosRunsOptions, LaunchOptions, RunKeyInput, StartInput, AnswerInput } from './dbos-runs-options.js';
export type { RunStand } from './advance-run.js';
export { DbosError } from './dbos-errors.js';
export type { DbosErrorKind } from './dbos-errors.js';
