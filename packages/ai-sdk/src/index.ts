/**
 * `@replan/ai-sdk` — the Vercel AI SDK for replan: any AI SDK language model as a `ChatModel`
 * (`aiSdkModel`), and runs as AI SDK UI message streams that survive a reload
 * (`toUIMessageStream`, `resumeUIMessageStream`).
 * @module
 */

// Any AI SDK model as a ChatModel
export { aiSdkModel, AiSdkChatModel } from './model/ai-sdk-model.js';
export type { AiSdkModelOptions } from './model/ai-sdk-model.js';
export type { AiSdkLanguageModel, AiSdkLanguageModelV4 } from './model/language-model-v4.js';

// Runs as AI SDK UI message streams that survive a reload.
export { toUIMessageStream } from './ui-stream/to-ui-message-stream.js';
export type { ToUIMessageStreamOptions } from './ui-stream/to-ui-message-stream.js';
export { resumeUIMessageStream } from './ui-stream/resume-ui-message-stream.js';
export type { ResumeUIMessageStreamOptions } from './ui-stream/resume-ui-message-stream.js';
export { createUIMessageStreamResponse, resumeUIMessageStreamResponse, uiMessageStreamResponse } from './ui-stream/ui-stream-response.js';
export type { UIStreamResponseInit } from './ui-stream/ui-stream-response.js';
export { writeUIStreamResponse } from './ui-stream/node-response.js';
export { approvalResponsesOf, resumeFromApprovals } from './ui-stream/approval-responses.js';
export type { ResumeFromApprovalsOptions } from './ui-stream/approval-responses.js';
export { uiChunkId } from './ui-stream/identified-chunks.js';
export { assistantMessageId } from './ui-stream/message-id.js';
export type { SessionChangeSubscription } from './ui-stream/session-changes.js';
export type { StreamSession, RunnerStreamSession, StreamSessionRef } from './ui-stream/session-ref.js';
export type {
  PlanData,
  StepData,
  StepStatus,
  InterruptData,
  GuardrailData,
  ReplanDataParts,
  ReplanUIMessage,
  ReplanUIChunk,
} from './ui-stream/ui-data-parts.js';
export { UIStreamError } from './ui-stream/ui-stream-errors.js';
export type { UIStreamErrorKind } from './ui-stream/ui-stream-errors.js';
export type { ResumeIdProblem } from './ui-stream/ui-stream-errors.js';
