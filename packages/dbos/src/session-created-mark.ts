// Apart from created-marker.ts: advance-run's declarations (reached from the package's own) must not
// name the DBOS SDK's types, which an app that never launches DBOS does not install.
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
