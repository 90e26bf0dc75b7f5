import type { Session, SessionKey } from './session.js';
import { readChildSessionLink } from './child-session-link.js';

/** How far up a chain of child sessions (agents run as tools inside agents run as tools) to look. */
const MAX_NESTING = 64;

/** Where a child session's interrupts are answered: its parent, and the root session of its chain. */
export interface ChildSessionRoot {
  /** The session whose `agentTool` call runs the child. */
  readonly parentSessionId: string;
  /** That tool call's id in the parent session. */
  readonly toolCallId: string;
  /** The session at the top of the chain (not a child session itself): the one a `Runner` resumes. */
  readonly rootSessionId: string;
  /**
   * What the root session's interrupt ids put before the child's own: the outer tool call ids,
   * outermost first, each followed by `/` (`o1/` for a child of the root, `o1/o2/` one level down).
   * The root's id for the child's interrupt `a1:approval` is `${interruptPrefix}a1:approval`.
   */
  readonly interruptPrefix: string;
}

/**
 * For a child session of an `agentTool` call: its parent, its root session and the prefix that
 * turns its interrupt ids into the root's. `undefined` for a session that is not a child session.
 * Reads the parents with `get` (a missing parent ends the walk there: it is named as the root).
 */
export async function childSessionRoot(
  session: Pick<Session, 'appName' | 'userId' | 'events'>,
  get: (key: SessionKey) => Promise<Pick<Session, 'events'> | undefined>,
): Promise<ChildSessionRoot | undefined> {
  const link = readChildSessionLink(session.events[0]?.meta);
  if (!link) return undefined;
  let rootSessionId = link.parentSessionId;
  let interruptPrefix = `${link.toolCallId}/`;
  for (let depth = 1; depth < MAX_NESTING; depth++) {
    const parent = await get({ appName: session.appName, userId: session.userId, id: rootSessionId });
    const up = readChildSessionLink(parent?.events[0]?.meta);
    if (!up) break;
    rootSessionId = up.parentSessionId;
    interruptPrefix = `${up.toolCallId}/${interruptPrefix}`;
  }
  return { parentSessionId: link.parentSessionId, toolCallId: link.toolCallId, rootSessionId, interruptPrefix };
}
