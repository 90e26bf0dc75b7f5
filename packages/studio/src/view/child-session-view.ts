import type { ChildSessionRoot } from '@replan/core/agent-kit';

import type { SessionDigest } from '../../web/src/wire-types.js';

/**
 * A child session's digest as the page shows it: linked to its parent, and each open interrupt
 * marked with where it is answered — the root session, under the id that carries the nesting. A
 * child session is run only by its tool call inside its parent's run, so a runner cannot resume it
 * on its own (it would run the wrong agent there); answering the root's interrupt resumes the child.
 */
export function childSessionDigest(digest: SessionDigest, root: ChildSessionRoot): SessionDigest {
  return {
    ...digest,
    parent: { sessionId: root.parentSessionId, toolCallId: root.toolCallId, rootSessionId: root.rootSessionId },
    interrupts: digest.interrupts.map((interrupt) => ({
      ...interrupt,
      answerIn: { sessionId: root.rootSessionId, interruptId: `${root.interruptPrefix}${interrupt.id}` },
    })),
  };
}
