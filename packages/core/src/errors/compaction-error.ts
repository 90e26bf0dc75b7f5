import { ReplanError } from './replan-error.js';

/**
 * Compaction could not make an agent's request fit: the summarizer failed or answered nothing, or
 * the part that always stays verbatim (instructions, tools, the task and what came before this
 * turn) is itself larger than `maxInputTokens`. Nothing is lost: every tool call and result is
 * stored, and the session is resumable once the cause is fixed.
 */
export class CompactionError extends ReplanError {
  constructor(
    readonly agentName: string,
    readonly reason: 'summarizer-failed' | 'empty-summary' | 'verbatim-too-large',
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`Compaction of agent "${agentName}"'s context failed: ${detail}`, options);
  }
}
