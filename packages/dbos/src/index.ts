export { dbosRuns, DbosRuns } from './dbos-runs.js';
export type { DbosRunsOptions } from './dbos-runs-options.js';
export { DbosError } from './dbos-errors.js';
