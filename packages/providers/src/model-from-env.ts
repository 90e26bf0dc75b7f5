import { ConfigurationError } from '@replan/core';
import { createOpenAIClient } from './client.js';
import { toModelError } from './errors/map-error.js';
import { ModelError } from '@replan/core';
import { OpenAIChatModel, type OpenAIChatModelOptions } from './openai-chat-model.js';
import { discoverContextWindow } from './profiles/discover-context-window.js';
import { PROVIDER_PROFILES, type ProviderProfileName } from './profiles/provider-profile.js';
import { THINK_TAGS_MODES, type ThinkTagsMode } from './reasoning/think-tags.js';

type Env = Record<string, string | undefined>;

/** The model OpenAI itself is asked for when only `OPENAI_API_KEY` is set. */
const OPENAI_DEFAULT_MODEL = 'gpt-4o-mini';
/** Longest wait for `GET /models` while discovering the model, ms. */
const DISCOVERY_TIMEOUT_MS = 10_000;
/** Model ids a discovery error lists at most. */
const LISTED_MODELS = 10;

/**
 * An `OpenAIChatModel` configured from the environment, or `undefined` when neither
 * `OPENAI_API_KEY` nor `OPENAI_BASE_URL` is set (so a program can fall back to an offline model).
 * `REPLAN_MODEL` names the model; without it, OpenAI (only `OPENAI_API_KEY` set) is asked for
 * `gpt-4o-mini`, but a server set by `OPENAI_BASE_URL` is never sent a guessed name: that is a
 * `ConfigurationError` (use `discoverModelFromEnv()` to take the server's only model).
 * `REPLAN_PROVIDER_PROFILE` overrides the detected profile; `REPLAN_THINK_TAGS` (`auto` | `on` |
 * `off`) sets `thinkTags`.
 */
export function modelFromEnv(env: Env = process.env, overrides: Partial<OpenAIChatModelOptions> = {}): OpenAIChatModel | undefined {
  const settings = envSettings(env);
  if (!settings) return undefined;
  const model = overrides.model || env.REPLAN_MODEL || (settings.baseURL ? undefined : OPENAI_DEFAULT_MODEL);
  if (!model)
    throw new ConfigurationError(
      `OPENAI_BASE_URL is set (${settings.baseURL}) but REPLAN_MODEL is not: set REPLAN_MODEL to a model that server serves, ` +
        `or use \`await discoverModelFromEnv()\` to take the server's model when it lists exactly one.`,
    );
  return new OpenAIChatModel({ ...settings, model, ...overrides });
}

/**
 * `modelFromEnv()`, except that with `OPENAI_BASE_URL` and no `REPLAN_MODEL` it asks the server
 * (`GET /models`) and uses the model it lists when it lists exactly one (a local vLLM or
 * llama.cpp server). None, several, or a server that does not answer is a `ConfigurationError`
 * that says which models there are, or which URL did not answer.
 * Against LiteLLM or OpenRouter (the model's `media` profile) it also reads the model's context
 * window from the server (`discoverContextWindow`) unless `overrides.contextWindow` is given; a
 * server that reports none, or a lookup that fails, leaves `contextWindow` unset.
 */
export async function discoverModelFromEnv(
  env: Env = process.env,
  overrides: Partial<OpenAIChatModelOptions> = {},
): Promise<OpenAIChatModel | undefined> {
  const settings = envSettings(env);
  if (!settings) return undefined;
  if (overrides.model || env.REPLAN_MODEL || !settings.baseURL) {
    const named = modelFromEnv(env, overrides);
    return named && withReportedWindow(named, settings, overrides);
  }
  const ids = await listModels(settings.baseURL, settings.apiKey, overrides);
  if (ids.length !== 1) {
    const listed = ids.length ? `: ${ids.slice(0, LISTED_MODELS).join(', ')}${ids.length > LISTED_MODELS ? ', …' : ''}` : '';
    throw new ConfigurationError(
      `OPENAI_BASE_URL is set (${settings.baseURL}) but REPLAN_MODEL is not, and the server lists ${ids.length} models${listed}. Set REPLAN_MODEL to the one to use.`,
    );
  }
  return withReportedWindow(new OpenAIChatModel({ ...settings, model: ids[0] as string, ...overrides }), settings, overrides);
}

/**
 * The model again with the context window its server reports, when it is served by LiteLLM or
 * OpenRouter and no window was given; otherwise the model unchanged (nothing is asked).
 */
async function withReportedWindow(
  model: OpenAIChatModel,
  settings: Omit<OpenAIChatModelOptions, 'model'> & { apiKey: string; baseURL?: string },
  overrides: Partial<OpenAIChatModelOptions>,
): Promise<OpenAIChatModel> {
  const baseURL = overrides.baseURL ?? settings.baseURL;
  if (model.contextWindow !== undefined || !baseURL || (model.media !== 'litellm' && model.media !== 'openrouter')) return model;
  const contextWindow = await discoverContextWindow({
    baseURL,
    model: model.model,
    apiKey: overrides.apiKey ?? settings.apiKey,
    server: model.media,
    timeoutMs: DISCOVERY_TIMEOUT_MS,
    ...(overrides.headers ? { headers: overrides.headers } : {}),
    ...(overrides.fetch ? { fetch: overrides.fetch } : {}),
  });
  if (contextWindow === undefined) return model;
  return new OpenAIChatModel({ ...settings, model: model.model, ...overrides, contextWindow });
}

/** The connection and profile settings of the environment, or `undefined` when none is set. */
function envSettings(env: Env): (Omit<OpenAIChatModelOptions, 'model'> & { apiKey: string; baseURL?: string }) | undefined {
  const apiKey = env.OPENAI_API_KEY || undefined;
  const baseURL = env.OPENAI_BASE_URL || undefined;
  if (!apiKey && !baseURL) return undefined;
  const profile = env.REPLAN_PROVIDER_PROFILE as ProviderProfileName | undefined;
  const thinkTags = env.REPLAN_THINK_TAGS as ThinkTagsMode | undefined;
  return {
    apiKey: apiKey ?? 'not-needed',
    ...(baseURL ? { baseURL } : {}),
    ...(profile && PROVIDER_PROFILES.includes(profile) ? { profile } : {}),
    ...(thinkTags && THINK_TAGS_MODES.includes(thinkTags) ? { thinkTags } : {}),
  };
}

async function listModels(baseURL: string, apiKey: string, overrides: Partial<OpenAIChatModelOptions>): Promise<string[]> {
  const client = createOpenAIClient({
    apiKey: overrides.apiKey ?? apiKey,
    baseURL,
    maxRetries: 0,
    timeout: DISCOVERY_TIMEOUT_MS,
    ...(overrides.headers ? { headers: overrides.headers } : {}),
    ...(overrides.fetch ? { fetch: overrides.fetch } : {}),
  });
  try {
    const page = await client.models.list();
    return page.data.map((m) => m.id).filter((id): id is string => typeof id === 'string' && id !== '');
  } catch (error) {
    const typed = toModelError(error);
    const why = typed instanceof ModelError ? typed.providerMessage : String(error);
    throw new ConfigurationError(
      `OPENAI_BASE_URL is set (${baseURL}) but REPLAN_MODEL is not, and the server's model list (GET ${baseURL.replace(/\/$/, '')}/models) could not be read: ${why}. Check the URL, or set REPLAN_MODEL.`,
      { cause: error },
    );
  }
}
