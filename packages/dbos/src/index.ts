export { dbosRuns, DbosRuns } from './dbos-runs.js';
export type { DbosRunsOptions } from './dbos-runs-options.js';
export { RunNotFoundError, RunFinishedError, DbosUnreachableError, SessionDeletedError } from './dbos-errors.js';
