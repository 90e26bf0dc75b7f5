/**
 * `@replan/ai-sdk` — the Vercel AI SDK for replan: any AI SDK language model as a `ChatModel`
 * (`aiSdkModel`).
 * @module
 */

// Any AI SDK model as a ChatModel
export { aiSdkModel, AiSdkChatModel } from './model/ai-sdk-model.js';
export type { AiSdkModelOptions } from './model/ai-sdk-model.js';
export type { AiSdkModelRetry } from './model/model-retries.js';
export { AiSdkModelError, RateLimitError, ContextLengthError, AuthenticationError, InvalidRequestError } from './model/model-errors.js';
export type { AiSdkModelErrorDetails } from './model/model-errors.js';
