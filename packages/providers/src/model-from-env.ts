import { OpenAIChatModel, type OpenAIChatModelOptions } from './openai-chat-model.js';
import { PROVIDER_PROFILES, type ProviderProfileName } from './profiles/provider-profile.js';
import { THINK_TAGS_MODES, type ThinkTagsMode } from './reasoning/think-tags.js';

/**
 * An `OpenAIChatModel` configured from the environment, or `undefined` when neither
 * `OPENAI_API_KEY` nor `OPENAI_BASE_URL` is set (so a program can fall back to an offline model).
 * `REPLAN_MODEL` names the model (default `gpt-4o-mini`); `REPLAN_PROVIDER_PROFILE` overrides the
 * detected profile; `REPLAN_THINK_TAGS` (`auto` | `on` | `off`) sets `thinkTags`.
 */
export function modelFromEnv(
  env: Record<string, string | undefined> = process.env,
  overrides: Partial<OpenAIChatModelOptions> = {},
): OpenAIChatModel | undefined {
  const apiKey = env.OPENAI_API_KEY || undefined;
  const baseURL = env.OPENAI_BASE_URL || undefined;
  if (!apiKey && !baseURL) return undefined;
  const profile = env.REPLAN_PROVIDER_PROFILE as ProviderProfileName | undefined;
  const thinkTags = env.REPLAN_THINK_TAGS as ThinkTagsMode | undefined;
  return new OpenAIChatModel({
    model: env.REPLAN_MODEL || 'gpt-4o-mini',
    apiKey: apiKey ?? 'not-needed',
    ...(baseURL ? { baseURL } : {}),
    ...(profile && PROVIDER_PROFILES.includes(profile) ? { profile } : {}),
    ...(thinkTags && THINK_TAGS_MODES.includes(thinkTags) ? { thinkTags } : {}),
    ...overrides,
  });
}
