import type { Runner } from '@replan/core';

/** How `dbosRuns` runs an app's runs on DBOS. */
export interface DbosRunsOptions {
  /** The runner of each app this process serves (each on a session store every worker shares, e.g. `PostgresSessionStore`). */
  readonly runners: Runner | readonly Runner[];
  /** The DBOS queue name prefix (default `replan`); each app's runs go on `<queue>.<appName>`. */
  readonly queue?: string;
  /**
   * Runs one worker process drives at once, per app (default 4). DBOS keeps one setting per queue
   * in its database: the last worker launched sets it for all, so give every worker of an app the
   * same value; a producer (`worker: false`) never changes it.
   */
  readonly concurrency?: number;
  /**
   * Runs driven at once across all workers, per app (default: no limit). Like `concurrency`, set
   * by the last worker launched (give all workers the same value), never by a producer.
   */
  readonly totalConcurrency?: number;
  /**
   * How long a silent worker is presumed alive (default: the runners' `leaseMs`, 30 s unless set).
   * Its heartbeat is written every third of it; a worker silent for longer (or whose process is
   * gone on this host) has its runs taken over. Give the runners the same `leaseMs`.
   */
  readonly leaseMs?: number;
  /** How often `result` and `events` look again (default 100 ms). */
  readonly pollMs?: number;
  /**
   * How often an idle worker looks for new runs on its queues (DBOS's `minPollingIntervalMs`;
   * default 15 ms, so a run is picked up within about 20 ms). Each look is one short query per
   * queue per worker: raise it to spare the database when many workers idle.
   */
  readonly pickupPollMs?: number;
  /** Background failures (a heartbeat, a takeover sweep); default `console.warn`. */
  readonly onError?: (error: Error) => void;
}

/** How `launch` starts DBOS in this process. */
export interface LaunchOptions {
  /** The PostgreSQL database DBOS keeps its workflows in (created when missing); usually the sessions' server. */
  readonly systemDatabaseUrl: string;
  /** The DBOS application name (default `replan`). */
  readonly name?: string;
  /**
   * The DBOS application version (default `replan-1`). Pinned, so runs started before a deploy
   * are finished by the workers of the next one; DBOS would otherwise derive it from the code and
   * leave older runs to workers that no longer exist.
   */
  readonly applicationVersion?: string;
  /** This process's DBOS executor id (default `host-pid-random`; unique per process). */
  readonly executorId?: string;
  /**
   * Drive runs here (default `true`); `false` only starts, answers and reads runs, and leaves the
   * queues' limits (`concurrency`, `totalConcurrency`) to the workers.
   */
  readonly worker?: boolean;
  /**
   * More `DBOS.setConfig` settings (`logLevel`, `systemDatabaseSchemaName`, `systemDatabasePoolSize`, …),
   * typed loosely so these declarations do not need the optional DBOS SDK installed.
   */
  readonly dbosConfig?: Readonly<Record<string, unknown>>;
}

/** Names a run: the session it drives. */
export interface RunKeyInput {
  /** The app (default: the only runner's). */
  readonly appName?: string;
  readonly userId: string;
  readonly sessionId: string;
}

export interface StartInput {
  readonly appName?: string;
  readonly userId: string;
  /** A new session's id (default: a random UUID). A session that exists is refused. */
  readonly sessionId?: string;
  readonly input: string;
}

export interface AnswerInput extends RunKeyInput {
  /** Answers by interrupt id (see `DbosRunResult.interrupts`); approvals take an `ApprovalAnswer`. */
  readonly values: Readonly<Record<string, unknown>>;
}
