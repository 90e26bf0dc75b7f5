import { afterEach, describe, it } from 'vitest';
import { killLeaseChildren } from './support/lease-child.js';
import { resumeAtOnceAfterKill, resumeRefusedDuringLongToolCall, zombieFencedAfterTakeover } from './support/lease-scenarios.js';
import { fileTarget } from './support/store-target.js';

afterEach(killLeaseChildren);

describe('FileSessionStore leases across processes', () => {
  it(
    'refuses Runner.resume from another process during a long tool call of a live run (SessionBusyError), nothing written',
    () => resumeRefusedDuringLongToolCall(fileTarget),
    60_000,
  );
  it(
    'fences a run paused past its lease (SIGSTOP): another process takes over and completes; the woken zombie fails with LeaseLostError, appending nothing',
    () => zombieFencedAfterTakeover(fileTarget, { fakeHeartbeat: false }),
    60_000,
  );
  it(
    "refuses the zombie's appends in the store itself when its own expiry check never fires",
    () => zombieFencedAfterTakeover(fileTarget, { fakeHeartbeat: true }),
    60_000,
  );
  it(
    'resumes at once in a new process after the holder was killed (SIGKILL), without waiting for its minute-long lease',
    () => resumeAtOnceAfterKill(fileTarget),
    60_000,
  );
});
