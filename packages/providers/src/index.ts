// Models
export { OpenAIChatModel } from './openai-chat-model.js';
export type { OpenAIChatModelOptions } from './openai-chat-model.js';
export { createOpenAIClient } from './client.js';
export { modelFromEnv, discoverModelFromEnv } from './model-from-env.js';
export { warnRetry, DEFAULT_MAX_RETRIES, DEFAULT_CONNECTION_RETRIES } from './retry/request-retries.js';
export type { ProviderRetry, RetryOptions } from './retry/request-retries.js';

// Profiles
export { discoverContextWindow } from './profiles/discover-context-window.js';

// Errors
export {
  ProviderError,
  RateLimitError,
  QuotaExceededError,
  RequestTooLargeError,
  ContextLengthError,
  AuthenticationError,
  InvalidRequestError,
  TimeoutError,
  ProviderConnectionError,
} from './errors/provider-errors.js';
export type { ProviderErrorDetails } from './errors/provider-errors.js';
export { UnsupportedMediaError, UnresolvedBlobError } from './errors/media-errors.js';

// Structured output
export { StrictSchemaError } from './schema/strict-json-schema.js';

// Responses API
export { OpenAIResponsesModel } from './responses/openai-responses-model.js';
export type { OpenAIResponsesModelOptions } from './responses/openai-responses-model.js';
