// Models
export { OpenAIChatModel } from './openai-chat-model.js';
export type { OpenAIChatModelOptions } from './openai-chat-model.js';
export { createOpenAIClient } from './client.js';
export type { ClientOptions } from './client.js';
export { modelFromEnv, discoverModelFromEnv } from './model-from-env.js';
export { warnRetry, DEFAULT_MAX_RETRIES, DEFAULT_CONNECTION_RETRIES } from './retry/request-retries.js';
export type { ProviderRetry, RetryOptions } from './retry/request-retries.js';

// Profiles
export { detectProfile, isGoogleEndpoint, PROVIDER_PROFILES } from './profiles/provider-profile.js';
export type { ProviderProfileName } from './profiles/provider-profile.js';

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
export { toProviderError } from './errors/map-error.js';
export { errorFacts } from './errors/error-body.js';
export type { ErrorFacts } from './errors/error-body.js';
export { classifyError } from './errors/classify-error.js';
export type { ErrorKind } from './errors/classify-error.js';
export { capturingFetch } from './errors/capturing-fetch.js';

// Structured output
export { toStrictJsonSchema, jsonSchemaOf, StrictSchemaError } from './schema/strict-json-schema.js';
export { restoreOptionalText } from './schema/restore-optional.js';

// Building blocks (for other OpenAI-compatible adapters)
export { ChatAccumulator } from './chat/chat-accumulator.js';
export { buildChatRequest } from './chat/chat-request.js';
export type { ChatRequestOptions, ChatRequestBody } from './chat/chat-request.js';
export { toChatMessages } from './chat/chat-messages.js';
export { assistantReplay } from './reasoning/reasoning-replay.js';
export type { ReplayTarget, AssistantReplay } from './reasoning/reasoning-replay.js';
export { chatUsageOf, finishReasonOf } from './chat/chat-usage.js';
export { ThinkTagSplitter, THINK_TAGS_MODES } from './reasoning/think-tags.js';
export type { ThinkTagsMode, ContentSegment } from './reasoning/think-tags.js';

// Responses API
export { OpenAIResponsesModel } from './responses/openai-responses-model.js';
export type { OpenAIResponsesModelOptions } from './responses/openai-responses-model.js';
export { buildResponsesRequest, toResponsesInput } from './responses/responses-request.js';
export type { ResponsesRequestOptions, ResponsesRequestBody } from './responses/responses-request.js';
export { blocksOfOutput, responseOf as responsesResponseOf, responsesUsageOf } from './responses/responses-output.js';
