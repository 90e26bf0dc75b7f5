import type { AgentEvent } from '../events/agent-event.js';
import { ResumeError } from '../errors/resume-error.js';
import { SessionExistsError } from '../errors/session-errors.js';
import type { Session, SessionKey } from '../sessions/session.js';
import type { SessionStore } from '../sessions/session-store.js';
import { refuseChildSession } from './child-session-guard.js';
import { abandonmentEvents, openInterruptsOf } from './open-interrupts.js';
import { fenceAppends, type RunLease } from '../sessions/run-lease.js';
import type { RunOptions } from './run-options.js';

/**
 * Stores the user's input. An existing session is leased first (a live lease elsewhere refuses
 * the run before anything is written); a new one is created with the input in one write, then
 * leased (nobody else can hold a lease on a session that did not exist).
 */
export async function storeRunInput(
  sessionStore: SessionStore,
  newId: () => string,
  key: SessionKey,
  input: AgentEvent,
  options: RunOptions,
  lease: RunLease | undefined,
): Promise<Session> {
  const state = options.state;
  const existing = await sessionStore.get(key);
  if (existing) await refuseChildSession(sessionStore, existing, 'run');
  if (!existing) {
    let created: Session;
    try {
      created = await sessionStore.create({ ...key, ...(state ? { state } : {}) }, [input]);
    } catch (error) {
      if (!(error instanceof SessionExistsError)) throw error;
      return storeRunInput(sessionStore, newId, key, input, options, lease); // created meanwhile: append instead
    }
    await lease?.acquire();
    return created;
  }
  let current = existing;
  if (lease) {
    await lease.acquire();
    // Read again under the lease: whatever the previous holder appended is in it.
    current = (await sessionStore.get(key)) ?? existing;
  }
  // A new message must not leave an approval (or any question) with no outcome.
  const open = openInterruptsOf(current.events);
  if (open && !options.abandon)
    throw ResumeError.openInterrupts(
      key.id,
      open.interrupts.map((i) => ({ id: i.id, reason: i.reason, ...(i.toolName ? { toolName: i.toolName } : {}) })),
    );
  const events = open ? [...abandonmentEvents(current.events, open, newId), input] : [input];
  const store = lease ? fenceAppends(sessionStore, lease) : sessionStore;
  const { version } = await store.appendEvents(key, events, { expectedVersion: current.version });
  return { ...current, events: [...current.events, ...events], version };
}
