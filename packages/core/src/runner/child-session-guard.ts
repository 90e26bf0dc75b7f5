import { childSessionRoot } from '../sessions/child-session-root.js';
import { ChildSessionError } from '../errors/composition-errors.js';
import type { Session } from '../sessions/session.js';
import type { SessionStore } from '../sessions/session-store.js';
import { readInvocation } from './invocation-log.js';

/**
 * Refuses a `Runner` run or resume addressed to a child session of an `agentTool` call
 * (a `ChildSessionError` of kind `resume`): the runner's agent is not the one that runs there, and an answer
 * stored in the child would never reach the tool call waiting for it in the parent. The error
 * names the root session and, for each interrupt id asked about (else each open one), the root's
 * id to answer instead. A no-op for any other session.
 */
export async function refuseChildSession(
  store: SessionStore,
  session: Session,
  action: 'run' | 'resume',
  asked: readonly string[] = [],
): Promise<void> {
  const root = await childSessionRoot(session, (key) => store.get(key));
  if (!root) return;
  const ids = asked.length ? asked : (readInvocation(session.events)?.openInterrupts.map((i) => i.id) ?? []);
  const outer = Object.fromEntries(ids.map((id) => [id, `${root.interruptPrefix}${id}`]));
  throw ChildSessionError.resume(session.id, root.parentSessionId, root.toolCallId, root.rootSessionId, outer, action);
}
