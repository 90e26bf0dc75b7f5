import type { Dbos } from './load-dbos-sdk.js';
import { CREATED_STREAM } from './run-ids.js';
import type { SessionCreatedMark } from './session-created-mark.js';

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
