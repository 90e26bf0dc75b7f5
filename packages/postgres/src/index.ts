export { PostgresSessionStore } from './postgres-session-store.js';
export type { PostgresSessionStoreOptions } from './postgres-session-store.js';
export { MIGRATIONS } from './migrations.js';
export { PostgresRunQueue } from './queue/run-queue.js';
export type { PostgresRunQueueOptions, SubmitInput, SubmitResumeInput, WaitForInput } from './queue/run-queue.js';
export type { ListRunsInput, QueuedRunSummary } from './queue/run-listing.js';
export { Worker } from './queue/worker.js';
export type { WorkerOptions, StopOptions } from './queue/worker.js';
export {
  RunNotQueuedError,
  RunInProgressError,
  RunAttemptsExhaustedError,
  RunQueueClosedError,
  RunSessionDeletedError,
} from './queue/queue-errors.js';
