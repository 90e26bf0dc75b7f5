/** What names a run: one DBOS workflow per session. */
export interface RunRequest {
  readonly appName: string;
  readonly userId: string;
  readonly sessionId: string;
}

/** The run's workflow id: distinct sessions never share one (each part is escaped). */
export function workflowIdOf(key: RunRequest): string {
  return `replan/${encodeURIComponent(key.appName)}/${encodeURIComponent(key.userId)}/${encodeURIComponent(key.sessionId)}`;
}

/** The DBOS queue of one app's runs: a worker listens only to the queues of the apps it has runners for. */
export function queueNameOf(base: string, appName: string): string {
  return `${base}.${appName}`;
}

/** The name the run workflow is registered under (the same in every worker and version). */
export const RUN_WORKFLOW = 'replan.run';
/** The DBOS event a run sets after each step: where it stands (see `RunStand`). */
export const STAND_EVENT = 'replan.stand';
/** The topic interrupt answers are sent on. */
export const ANSWER_TOPIC = 'replan.answer';
/** The DBOS stream a run writes once its session exists (see `SessionCreatedMark`). */
export const CREATED_STREAM = 'replan.created';
