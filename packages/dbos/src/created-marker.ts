import type { Dbos } from './load-dbos-sdk.js';
import { CREATED_STREAM } from './run-ids.js';

/**
 * A durable mark, kept by DBOS with the run's workflow, that its session was created. A takeover
 * replays a step that did not finish from the start: finding the session gone, it cannot tell from
 * the session store whether the session was never created (create it now) or was deleted since
 * (end as `deleted`, never recreate it). The mark tells.
 */
export interface SessionCreatedMark {
  /** Records that the session exists (called right after creating it, before the run stores anything else). */
  mark(): Promise<void>;
  /** Whether an earlier execution of this run created the session. */
  seen(): Promise<boolean>;
}

/**
 * The mark as a value on one of the workflow's DBOS streams: a step may write one (fenced on the
 * workflow's ownership, so a taken-over zombie cannot), and it survives the step's replay.
 */
export function dbosCreatedMark(dbos: Dbos, workflowId: string, isStreamTimeout: (error: unknown) => boolean): SessionCreatedMark {
  return {
    mark: () => dbos.writeStream(CREATED_STREAM, true),
    async seen() {
      try {
        // No wait: the value is there or it is not (the read times out at once).
        await dbos.readStreamOffset(workflowId, CREATED_STREAM, 0, { timeoutSeconds: 0 });
        return true;
      } catch (error) {
        if (isStreamTimeout(error)) return false;
        throw error;
      }
    },
  };
}
