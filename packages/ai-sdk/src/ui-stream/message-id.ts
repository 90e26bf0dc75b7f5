/**
 * The assistant message id of one invocation of a session: the same for the run, its resumes
 * (after an approval, a crash) and every replay, so the AI SDK client updates one message instead
 * of duplicating it or starting it over.
 */
export function assistantMessageId(sessionId: string, invocationId: string): string {
  return `replan:${sessionId}:${invocationId}`;
}
