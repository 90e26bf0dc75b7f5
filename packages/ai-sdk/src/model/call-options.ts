import type { JSONObject, JSONSchema7, LanguageModelV3CallOptions, SharedV3ProviderOptions } from '@ai-sdk/provider';
import type { ModelRequest, ModelSettings } from '@replan/core';
import type { ToolChoice } from '@replan/core/agent-kit';

/** AI SDK call options but the prompt; `reasoning` is v4's (AI SDK 7) top-level effort. */
type CallOptions = Omit<LanguageModelV3CallOptions, 'prompt'> & { reasoning?: 'minimal' | 'low' | 'medium' | 'high' };

/** Request settings over the model's defaults (`reasoning` and `extra` merged field by field). */
export function mergeSettings(defaults: ModelSettings | undefined, request: ModelSettings | undefined): ModelSettings {
  if (!defaults) return request ?? {};
  if (!request) return defaults;
  const reasoning = defaults.reasoning || request.reasoning ? { ...defaults.reasoning, ...request.reasoning } : undefined;
  const extra = defaults.extra || request.extra ? { ...defaults.extra, ...request.extra } : undefined;
  return { ...defaults, ...request, ...(reasoning ? { reasoning } : {}), ...(extra ? { extra } : {}) };
}

/**
 * A request's tools, tool choice, structured output and settings as AI SDK call options (the
 * prompt aside). `namespace` is the provider's options key (the first part of the language model's
 * `provider`): `settings.reasoning` becomes that provider's thinking option (for a v4
 * model, an effort alone is its top-level `reasoning`) and `settings.extra`
 * goes under it as it is; `providerOptions` (the model's own) are merged last, per namespace.
 */
export function callOptionsOf(
  req: ModelRequest,
  settings: ModelSettings,
  namespace: string,
  providerOptions: SharedV3ProviderOptions | undefined,
  spec: 'v3' | 'v4' = 'v3',
): CallOptions {
  const out: CallOptions = {};
  if (req.tools && req.tools.length > 0)
    out.tools = req.tools.map((t) => ({
      type: 'function',
      name: t.name,
      description: t.description,
      inputSchema: t.parameters as JSONSchema7,
    }));
  if (req.toolChoice !== undefined) out.toolChoice = toolChoiceOf(req.toolChoice);
  if (req.responseFormat)
    out.responseFormat = {
      type: 'json',
      schema: req.responseFormat.schema as JSONSchema7,
      name: req.responseFormat.name,
      ...(req.responseFormat.description !== undefined ? { description: req.responseFormat.description } : {}),
    };
  if (settings.temperature !== undefined) out.temperature = settings.temperature;
  if (settings.topP !== undefined) out.topP = settings.topP;
  if (settings.maxTokens !== undefined) out.maxOutputTokens = settings.maxTokens;
  // A v4 model takes an effort as the top-level `reasoning` option, which every v4 provider maps;
  // a token budget has no such option and stays the provider's own.
  const topLevel = spec === 'v4' && settings.reasoning?.effort !== undefined && settings.reasoning.budgetTokens === undefined;
  if (topLevel) out.reasoning = settings.reasoning?.effort;
  const own: JSONObject = { ...(topLevel ? {} : reasoningOptionsOf(namespace, settings)), ...(settings.extra as JSONObject | undefined) };
  const merged: SharedV3ProviderOptions = { ...(Object.keys(own).length > 0 ? { [namespace]: own } : {}) };
  for (const [ns, fields] of Object.entries(providerOptions ?? {})) merged[ns] = { ...merged[ns], ...fields };
  if (Object.keys(merged).length > 0) out.providerOptions = merged;
  return out;
}

function toolChoiceOf(choice: ToolChoice): NonNullable<LanguageModelV3CallOptions['toolChoice']> {
  return typeof choice === 'string' ? { type: choice } : { type: 'tool', toolName: choice.name };
}

/**
 * `settings.reasoning` as each AI SDK provider names it: Anthropic's `thinking` (a token budget, or
 * adaptive with an effort), Google's and Vertex's `thinkingConfig`, and `reasoningEffort` for
 * OpenAI, OpenAI-compatible servers and the rest.
 */
function reasoningOptionsOf(namespace: string, settings: ModelSettings): JSONObject {
  const effort = settings.reasoning?.effort;
  const budget = settings.reasoning?.budgetTokens;
  if (effort === undefined && budget === undefined) return {};
  switch (namespace) {
    case 'anthropic':
      return budget !== undefined
        ? { thinking: { type: 'enabled', budgetTokens: budget } }
        : { thinking: { type: 'adaptive' }, effort: effort === 'minimal' ? 'low' : (effort as string) };
    case 'google':
    case 'vertex':
      return {
        thinkingConfig: {
          includeThoughts: true,
          ...(budget !== undefined ? { thinkingBudget: budget } : { thinkingLevel: effort as string }),
        },
      };
    default:
      return effort !== undefined ? { reasoningEffort: effort } : {};
  }
}
