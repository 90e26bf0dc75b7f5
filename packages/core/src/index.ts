/**
 * `@replan/core` — what an application uses: messages, `tool()`, the `ChatModel` interface, events,
 * session stores, the agents (`ReActAgent`, `SequentialAgent`, `ParallelAgent`, `LoopAgent`), the
 * `Runner` and its `Run`, and typed errors. Writing a store: `@replan/core/store-kit`; writing an
 * agent: `@replan/core/agent-kit`; tests: `@replan/core/testing` (docs/extending.md).
 * @module
 */
// Messages and content blocks
export type {
  ContentBlock,
  ReasoningBlock,
  ToolCallBlock,
  ToolResultBlock,
  ImageBlock,
  MediaBytesBlock,
  FileBlock,
  MediaBlock,
  ToolResultContent,
} from './messages/content-block.js';
export { imageFromBytes, imageFromFile, imageFromUrl, fileFromBytes, fileFromPath, fileFromUrl } from './messages/media-blocks.js';
export { InvalidMediaError, UnsupportedMediaError } from './errors/media-errors.js';
export { COMMON_IMAGE_TYPES } from './messages/image-types.js';
export { BlobLimitError } from './errors/blob-errors.js';
export type { Message } from './messages/message.js';
export {
  textBlock,
  systemMessage,
  userMessage,
  assistantMessage,
  toolMessage,
  messageText,
  toolCallsOf,
  toolResultsOf,
  reasoningOf,
  stringifyToolOutput,
} from './messages/message.js';

// Models
export type { ChatModel, ModelRequest, ModelResponse, ModelSettings, ModelCallOptions, ToolSpec } from './models/chat-model.js';
export { fallbackModel } from './models/fallback-model.js';
export type { FallbackModelOptions } from './models/fallback-model.js';
export type { ModelRetry } from './models/model-retries.js';
export type { Usage } from './models/usage.js';

// Tools
export { tool } from './tools/tool.js';
export type { Tool } from './tools/tool.js';
export { jsonSchema } from './tools/schemas/schema-input.js';
export type { SchemaInput } from './tools/schemas/schema-input.js';
export type { ToolContext } from './tools/tool-context.js';
export { isApprovalAnswer } from './tools/approval-answer.js';
export type { ApprovalAnswer } from './tools/approval-answer.js';

// Composition: agents as tools (child sessions)
export { agentTool } from './composition/agent-tool.js';
export { readChildSessionLink } from './sessions/child-session-link.js';
export { AgentToolError, ChildSessionError } from './errors/composition-errors.js';

// Events
export type { AgentEvent, EventError, Interrupt, FinalAnswer, RunStatus } from './events/agent-event.js';
export { eventKind } from './events/event-kind.js';

// Sessions
export type { Session, SessionKey, SessionSummary } from './sessions/session.js';
export type { SessionStore, SessionPage } from './sessions/session-store.js';
export { InMemorySessionStore } from './sessions/in-memory-session-store.js';
export type { InMemorySessionStoreOptions } from './sessions/in-memory-session-store.js';
export { inlineBlobs } from './sessions/blobs/inline-blobs.js';
export { FileSessionStore } from './sessions/file-session-store.js';
export type { FileSessionStoreOptions } from './sessions/file-session-store.js';
// Writing a store: `@replan/core/store-kit`.

// Agents
// Writing an agent: `@replan/core/agent-kit` (InvocationContext, model and tool calls, ...).
export type { Agent } from './invocation/agent.js';
export type { InvocationContext } from './invocation/invocation-context.js';
export { ReActAgent } from './agents/react-agent.js';
export type { ReActAgentOptions } from './agents/react-agent.js';
export { promptCache } from './prompt-cache/prompt-cache.js';
export type { PromptCacheOptions } from './prompt-cache/prompt-cache.js';
export { hooks } from './hooks/react-hooks.js';
export type { ReActHooks } from './hooks/react-hooks.js';
export type { Middleware, MiddlewareContext, ToolCallContext, ToolOutcome } from './middleware/middleware.js';
export { SequentialAgent } from './agents/sequential-agent.js';
export { ParallelAgent } from './agents/parallel-agent.js';
export { LoopAgent } from './agents/loop-agent.js';
export type { LoopAgentOptions } from './agents/loop-agent.js';
export type { WorkflowAgentOptions } from './agents/workflow-options.js';
export type { ContextOptions } from './context/context-options.js';

// How a ReActAgent reasons
export { planReActTags } from './reasoning/plan-react-tags-middleware.js';
export { builtInThinking } from './reasoning/built-in-thinking.js';
export type { BuiltInThinkingOptions } from './reasoning/built-in-thinking.js';

// Runner
export { Runner } from './runner/runner.js';
export type { RunnerOptions, RunOptions, ResumeOptions } from './runner/run-options.js';
export type { Run } from './runner/run.js';
export type { RunResult } from './events/run-result.js';
export type { BudgetView } from './invocation/run-limits.js';
export type { Guardrail, Guardrails } from './invocation/guardrail.js';
export type { GuardrailTrip } from './events/guardrail-verdict.js';
export { GuardrailError } from './guardrails/guardrail-error.js';
export { guardrails } from './guardrails/guardrails-middleware.js';
export type { PriceTable } from './models/model-prices.js';
export { costOfEvent, sessionTotals } from './runner/session-totals.js';

// Observers
export type { RunObserver, RunLifecycleEvent, LifecycleInfo } from './observe/run-observer.js';

// Errors
export { ReplanError, ConfigurationError, InvalidArgumentError } from './errors/replan-error.js';
export { ModelError, modelErrorOf } from './errors/model-error.js';
export type { ModelErrorKind, ModelErrorDetails } from './errors/model-error.js';
export { CompactionError } from './errors/compaction-error.js';
export { CompensationError, type CompensationReport } from './errors/compensation-error.js';
export { FallbackExhaustedError } from './errors/fallback-error.js';
export type { CompactionOptions } from './compaction/compaction-options.js';
export { compaction } from './compaction/compaction.js';
export { offloadToolResults } from './tools/offload/offload-tool-results.js';
export {
  MaxIterationsError,
  RunAbortedError,
  BudgetExceededError,
  ModelCallError,
  EmptyModelResponseError,
  OutputValidationError,
} from './errors/run-errors.js';
export { ResumeError } from './errors/resume-error.js';
export { StateValueError } from './errors/state-value-error.js';
export { ReplayError } from './errors/replay-errors.js';
export {
  ConcurrentUpdateError,
  SessionBusyError,
  LeaseLostError,
  SessionNotFoundError,
  SessionExistsError,
  SessionCorruptError,
  SessionStoreError,
} from './errors/session-errors.js';
