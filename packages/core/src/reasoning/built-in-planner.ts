import { ConfigurationError } from '../errors/replan-error.js';
import type { Message } from '../messages/message.js';
import type { ModelSettings } from '../models/chat-model.js';
import type { ReActPlanner } from './react-planner.js';

/** Native thinking for a model that has it: how much to think. */
export type ThinkingSettings = NonNullable<ModelSettings['reasoning']>;

export interface BuiltInPlannerOptions {
  /** Passed to the model as `settings.reasoning` (default `{ effort: 'medium' }`). */
  readonly thinking?: ThinkingSettings;
}

const EFFORTS: ReadonlySet<string> = new Set(['minimal', 'low', 'medium', 'high']);

/**
 * Uses a model's native thinking (reasoning models, Anthropic/Gemini thinking): asks for it in
 * the model settings and adds no instruction. The reasoning the provider returns is kept as
 * `reasoning` blocks without a kind (signatures untouched, so they round-trip).
 */
export class BuiltInPlanner implements ReActPlanner {
  readonly thinking: ThinkingSettings;

  constructor(options: BuiltInPlannerOptions = {}) {
    const thinking = options.thinking ?? { effort: 'medium' };
    if (thinking.effort !== undefined && !EFFORTS.has(thinking.effort))
      throw new ConfigurationError(
        `BuiltInPlanner: thinking.effort must be one of ${[...EFFORTS].join(', ')}; got ${JSON.stringify(thinking.effort)}.`,
      );
    const budget = thinking.budgetTokens;
    if (budget !== undefined && (!Number.isInteger(budget) || budget <= 0))
      throw new ConfigurationError(`BuiltInPlanner: thinking.budgetTokens must be a positive integer; got ${String(budget)}.`);
    this.thinking = thinking;
  }

  /** The agent's settings with this planner's thinking over any `reasoning` they had. */
  settings(settings: ModelSettings | undefined): ModelSettings {
    return { ...settings, reasoning: { ...settings?.reasoning, ...this.thinking } };
  }

  /**
   * Native reasoning blocks carry no PlanReAct kind; one that has a kind (from history written
   * by another planner) is copied without it. Everything else is returned as it is.
   */
  processResponse(message: Message): Message {
    if (!message.content.some((b) => b.type === 'reasoning' && b.reasoningKind !== undefined)) return message;
    return {
      ...message,
      content: message.content.map((b) => {
        if (b.type !== 'reasoning' || b.reasoningKind === undefined) return b;
        const { reasoningKind: _kind, ...rest } = b;
        return rest;
      }),
    };
  }
}
