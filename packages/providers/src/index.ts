// Models
export { OpenAIChatModel } from './openai-chat-model.js';
export type { OpenAIChatModelOptions } from './openai-chat-model.js';
export { createOpenAIClient } from './client.js';
export { modelFromEnv, discoverModelFromEnv } from './model-from-env.js';

// Profiles
export { discoverContextWindow } from './profiles/discover-context-window.js';

// Responses API
export { OpenAIResponsesModel } from './responses/openai-responses-model.js';
export type { OpenAIResponsesModelOptions } from './responses/openai-responses-model.js';
