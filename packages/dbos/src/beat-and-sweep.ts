import { takeOverDeadRuns, type TakeoverOptions } from './takeover.js';

/**
 * A worker's timers: its heartbeat (it is alive before its first run is dequeued) and the sweep that
 * takes over the runs of workers whose heartbeat stopped, each every third of the lease. Returns the
 * timers, for shutdown to clear; a failed beat or sweep is reported and tried again next time.
 */
export async function beatAndSweep(options: TakeoverOptions & { readonly onError: (error: Error) => void }): Promise<NodeJS.Timeout[]> {
  const { heartbeats, onError } = options;
  await heartbeats.migrate();
  await heartbeats.beat();
  const every = Math.max(10, Math.floor(options.leaseMs / 3));
  const beat = () => heartbeats.beat().catch((e: Error) => onError(new Error(`heartbeat failed: ${e.message}`, { cause: e })));
  const sweep = () =>
    takeOverDeadRuns(options).catch((e: Error) => onError(new Error(`takeover sweep failed: ${e.message}`, { cause: e })));
  const timers = [setInterval(beat, every), setInterval(sweep, every)];
  void sweep();
  return timers;
}
