import { type ChatModel, ReActAgent, Runner, type SessionStore } from '@replan/core';
import type { longStep } from './long-step.js';

/** The model window the compaction tests run under (tokens). */
export const WINDOW = 24_000;

/**
 * A runner over one long step's researcher, compacting under `WINDOW` (options override); `model`
 * replaces the step's own actor.
 */
export function compactingRunner(
  step: ReturnType<typeof longStep>,
  compaction: object = {},
  sessionStore?: SessionStore,
  model: ChatModel = step.actor,
) {
  const agent = new ReActAgent({
    name: 'researcher',
    model,
    tools: [step.fetchSource],
    instruction: 'Fetch every source, then report.',
    maxIterations: 100,
    compaction: { model: step.summarizer, maxInputTokens: WINDOW, ...compaction },
  });
  return new Runner({ agent, appName: 'long', ...(sessionStore ? { sessionStore } : {}) });
}
