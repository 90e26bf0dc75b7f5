/**
 * `@replan/ai-sdk` — the Vercel AI SDK for replan: any AI SDK language model as a `ChatModel`
 * (`aiSdkModel`), and runs as AI SDK UI message streams that survive a reload
 * (`toUIMessageStream`, `resumeUIMessageStream`).
 * @module
 */

// Any AI SDK model as a ChatModel
export { aiSdkModel } from './model/ai-sdk-model.js';
export type { AiSdkModelOptions } from './model/ai-sdk-model.js';
export type { AiSdkLanguageModel } from './model/language-model-v4.js';

// Runs as AI SDK UI message streams that survive a reload.
export { toUIMessageStream } from './ui-stream/to-ui-message-stream.js';
export type { ToUIMessageStreamOptions } from './ui-stream/to-ui-message-stream.js';
export { resumeUIMessageStream } from './ui-stream/resume-ui-message-stream.js';
export { createUIMessageStreamResponse, resumeUIMessageStreamResponse, uiMessageStreamResponse } from './ui-stream/ui-stream-response.js';
export { writeUIStreamResponse } from './ui-stream/node-response.js';
export { approvalResponsesOf, resumeFromApprovals } from './ui-stream/approval-responses.js';
export { uiChunkId } from './ui-stream/identified-chunks.js';
export { assistantMessageId } from './ui-stream/message-id.js';
export type { PlanData, StepData, InterruptData, GuardrailData, ReplanUIMessage, ReplanUIChunk } from './ui-stream/ui-data-parts.js';
export { UIStreamError } from './ui-stream/ui-stream-errors.js';
