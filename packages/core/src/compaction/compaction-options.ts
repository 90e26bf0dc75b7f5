import { ConfigurationError } from '../errors/replan-error.js';
import type { ChatModel } from '../models/chat-model.js';

/**
 * Keeps a long ReAct turn inside the model's window: before each model call the request's tokens
 * are estimated; past `triggerRatio × maxInputTokens` the older part of this invocation's turn is
 * replaced by a summary written by `model`. A tool call and its results are never split; the
 * instruction, the tools and everything before this turn (for a plan–execute step: the objective,
 * the plan and the step's task) stay verbatim.
 */
export interface CompactionOptions {
  /** The request size to stay under, in tokens. Default: the agent model's `contextWindow` (one of the two is required). */
  readonly maxInputTokens?: number;
  /** Compact when the estimated request passes this share of `maxInputTokens` (default 0.8; above 0, at most 1). */
  readonly triggerRatio?: number;
  /** How much of the latest turn to keep verbatim after a compaction, in tokens (default a quarter of `maxInputTokens`). */
  readonly keepRecentTokens?: number;
  /** The summarizer (default: the agent's own model). Its usage counts in the run's budget and cost. */
  readonly model?: ChatModel;
  /** The summarizer's instruction (default: keep every fact, number, name and source the task needs). */
  readonly instruction?: string;
}

/** `CompactionOptions` with its defaults applied and checked. */
export interface ResolvedCompaction {
  readonly maxInputTokens: number;
  readonly trigger: number;
  readonly keepRecentTokens: number;
  readonly model: ChatModel;
  readonly instruction: string | undefined;
}

/** Applies the defaults; a missing window or an out-of-range number is a `ConfigurationError` naming the agent. */
export function resolveCompaction(agent: string, options: CompactionOptions, model: ChatModel, named = true): ResolvedCompaction {
  const where = named ? `ReActAgent "${agent}": compaction` : agent;
  const maxInputTokens = options.maxInputTokens ?? model.contextWindow;
  if (maxInputTokens === undefined)
    throw new ConfigurationError(
      `${where} needs maxInputTokens: model "${model.id}" does not report a contextWindow (pass it to the model, or set compaction.maxInputTokens).`,
    );
  if (!Number.isInteger(maxInputTokens) || maxInputTokens < 1)
    throw new ConfigurationError(`${where}.maxInputTokens must be a positive integer (tokens), got ${maxInputTokens}.`);
  const ratio = options.triggerRatio ?? 0.8;
  if (!(ratio > 0 && ratio <= 1)) throw new ConfigurationError(`${where}.triggerRatio must be above 0 and at most 1, got ${ratio}.`);
  const keep = options.keepRecentTokens ?? Math.floor(maxInputTokens / 4);
  if (!Number.isFinite(keep) || keep < 0 || keep >= maxInputTokens * ratio)
    throw new ConfigurationError(
      `${where}.keepRecentTokens must be at least 0 and below triggerRatio × maxInputTokens (${Math.floor(maxInputTokens * ratio)}), got ${keep}.`,
    );
  if (options.model !== undefined && typeof options.model.generate !== 'function')
    throw new ConfigurationError(`${where}.model must be a ChatModel.`);
  return {
    maxInputTokens,
    trigger: Math.floor(maxInputTokens * ratio),
    keepRecentTokens: keep,
    model: options.model ?? model,
    instruction: options.instruction,
  };
}
