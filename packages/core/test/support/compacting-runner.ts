import { type ChatModel, ReActAgent, Runner, type SessionStore, type CompactionOptions, compaction } from '@replan/core';
import type { longStep } from './long-step.js';

/** The model window the compaction tests run under (tokens). */
export const WINDOW = 24_000;

/**
 * A runner over one long step's researcher, compacting under `WINDOW` (options override); `model`
 * replaces the step's own actor.
 */
export function compactingRunner(
  step: ReturnType<typeof longStep>,
  overrides: CompactionOptions = {},
  sessionStore?: SessionStore,
  model: ChatModel = step.actor,
) {
  const agent = new ReActAgent({
    name: 'researcher',
    model,
    tools: [step.fetchSource],
    instruction: 'Fetch every source, then report.',
    maxIterations: 100,
    middleware: [compaction({ model: step.summarizer, maxInputTokens: WINDOW, ...overrides })],
  });
  return new Runner({ agent, appName: 'long', ...(sessionStore ? { sessionStore } : {}) });
}
