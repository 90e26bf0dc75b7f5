import type { ModelSettings } from '@replan/core';
import type { ProviderProfileName } from '../profiles/provider-profile.js';
import type { Json } from '../reasoning/json.js';

/** Request settings over the model's defaults (`reasoning` and `extra` merged field by field). */
export function mergeSettings(defaults: ModelSettings | undefined, request: ModelSettings | undefined): ModelSettings {
  if (!defaults) return request ?? {};
  if (!request) return defaults;
  const reasoning = defaults.reasoning || request.reasoning ? { ...defaults.reasoning, ...request.reasoning } : undefined;
  const extra = defaults.extra || request.extra ? { ...defaults.extra, ...request.extra } : undefined;
  return { ...defaults, ...request, ...(reasoning ? { reasoning } : {}), ...(extra ? { extra } : {}) };
}

/**
 * Settings as each provider names them: `max_completion_tokens` for OpenAI (its reasoning models
 * refuse `max_tokens`), `max_tokens` elsewhere; reasoning as `reasoning_effort`, OpenRouter's
 * `reasoning`, a `thinking` budget (Claude and Gemini through LiteLLM), DeepSeek's `thinking`, or
 * Google's `thinking_config`. `extra` is copied last, as is.
 */
export function settingsFields(profile: ProviderProfileName, googleEndpoint: boolean, settings: ModelSettings): Json {
  const out: Json = {};
  if (settings.temperature !== undefined) out.temperature = settings.temperature;
  if (settings.topP !== undefined) out.top_p = settings.topP;
  if (settings.maxTokens !== undefined) out[profile === 'openai' ? 'max_completion_tokens' : 'max_tokens'] = settings.maxTokens;
  const effort = settings.reasoning?.effort;
  const budget = settings.reasoning?.budgetTokens;
  if (effort !== undefined || budget !== undefined) {
    switch (profile) {
      case 'openrouter':
        out.reasoning = budget !== undefined ? { max_tokens: budget } : { effort };
        break;
      case 'deepseek':
        out.thinking = { type: 'enabled' };
        break;
      case 'anthropic':
        if (budget !== undefined) out.thinking = { type: 'enabled', budget_tokens: budget };
        else out.reasoning_effort = effort;
        break;
      case 'gemini':
        if (effort !== undefined) out.reasoning_effort = effort;
        else if (googleEndpoint) out.extra_body = { google: { thinking_config: { thinking_budget: budget, include_thoughts: true } } };
        else out.thinking = { type: 'enabled', budget_tokens: budget };
        break;
      default:
        if (effort !== undefined) out.reasoning_effort = effort;
    }
  }
  return { ...out, ...settings.extra };
}
