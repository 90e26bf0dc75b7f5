// Models
export { OpenAIChatModel } from './openai-chat-model.js';
export type { OpenAIChatModelOptions } from './openai-chat-model.js';
export { createOpenAIClient } from './client.js';
export type { ClientOptions } from './client.js';
export { modelFromEnv, discoverModelFromEnv } from './model-from-env.js';
export { DEFAULT_MAX_RETRIES, DEFAULT_CONNECTION_RETRIES } from './retry/request-retries.js';
export type { RetryOptions } from './retry/request-retries.js';

// Profiles
export { PROVIDER_PROFILES } from './profiles/provider-profile.js';
export type { ProviderProfileName } from './profiles/provider-profile.js';
export { discoverContextWindow } from './profiles/discover-context-window.js';
export type { ContextWindowServer, DiscoverContextWindowOptions } from './profiles/discover-context-window.js';
export { PROMPT_CACHING } from './cache/prompt-caching.js';
export type { PromptCaching } from './cache/prompt-caching.js';
export { MEDIA_PROFILES } from './media/media-profile.js';
export type { MediaProfileName } from './media/media-profile.js';

// Errors (a failed call is core's `ModelError`)
export { UnsupportedMediaError } from './errors/media-errors.js';

// Structured output
export type { ThinkTagsMode } from './reasoning/think-tags.js';

// Responses API
export { OpenAIResponsesModel } from './responses/openai-responses-model.js';
export type { OpenAIResponsesModelOptions } from './responses/openai-responses-model.js';
