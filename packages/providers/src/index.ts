// Models
export { OpenAIChatModel } from './openai-chat-model.js';
export type { OpenAIChatModelOptions } from './openai-chat-model.js';
export { createOpenAIClient } from './client.js';
export { modelFromEnv, discoverModelFromEnv } from './model-from-env.js';
export { DEFAULT_MAX_RETRIES, DEFAULT_CONNECTION_RETRIES } from './retry/request-retries.js';
export type { RetryOptions } from './retry/request-retries.js';

// Profiles
export { discoverContextWindow } from './profiles/discover-context-window.js';

// Responses API
export { OpenAIResponsesModel } from './responses/openai-responses-model.js';
export type { OpenAIResponsesModelOptions } from './responses/openai-responses-model.js';
