import { ConfigurationError } from '../errors/replan-error.js';
import type { Message } from '../messages/message.js';
import type { ModelSettings } from '../models/chat-model.js';
import type { Middleware } from '../middleware/middleware.js';

/** Native thinking for a model that has it: how much to think. */
export type ThinkingSettings = NonNullable<ModelSettings['reasoning']>;

export interface BuiltInThinkingOptions {
  /** Passed to the model as `settings.reasoning` (default `{ effort: 'medium' }`). */
  readonly thinking?: ThinkingSettings;
}

const EFFORTS: ReadonlySet<string> = new Set(['minimal', 'low', 'medium', 'high']);

/**
 * Uses a model's native thinking (reasoning models, Anthropic/Gemini thinking), as middleware:
 * asks for it in the request's settings and adds no instruction. The reasoning the provider
 * returns is kept as `reasoning` blocks without a kind (signatures untouched, so they round-trip);
 * one that has a kind (from history written with `planReActTags()`) is copied without it.
 * `new ReActAgent({ ..., middleware: [builtInThinking({ thinking: { effort: 'high' } })] })`.
 */
export function builtInThinking(options: BuiltInThinkingOptions = {}): Middleware {
  const thinking = options.thinking ?? { effort: 'medium' };
  if (thinking.effort !== undefined && !EFFORTS.has(thinking.effort))
    throw new ConfigurationError(
      `builtInThinking: thinking.effort must be one of ${[...EFFORTS].join(', ')}; got ${JSON.stringify(thinking.effort)}.`,
    );
  const budget = thinking.budgetTokens;
  if (budget !== undefined && (!Number.isInteger(budget) || budget <= 0))
    throw new ConfigurationError(`builtInThinking: thinking.budgetTokens must be a positive integer; got ${String(budget)}.`);
  return {
    name: 'builtInThinking',
    async wrapModelCall(next, request) {
      const settings = { ...request.settings, reasoning: { ...request.settings?.reasoning, ...thinking } };
      const response = await next({ ...request, settings });
      const message = withoutReasoningKinds(response.message);
      return message === response.message ? response : { ...response, message };
    },
  };
}

function withoutReasoningKinds(message: Message): Message {
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
