// Messages and content blocks
export type { ContentBlock, TextBlock, ReasoningBlock, ReasoningKind, ToolCallBlock, ToolResultBlock } from './messages/content-block.js';
export type { Message, Role } from './messages/message.js';
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
  toUserMessage,
  stringifyToolOutput,
} from './messages/message.js';

// Models
export type {
  ChatModel,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
  ModelSettings,
  ModelCallOptions,
  ToolSpec,
  ToolChoice,
  ResponseFormat,
  FinishReason,
} from './models/chat-model.js';
export type { Usage } from './models/usage.js';
export { addUsage, emptyUsage, totalTokens } from './models/usage.js';

// Tools
export { tool, toolSpecOf, toolParametersSchema } from './tools/tool.js';
export type { Tool, ToolDefinition } from './tools/tool.js';
export type { ToolContext, StateAccess } from './tools/tool-context.js';
export { InterruptSignal, isInterruptSignal } from './tools/interrupt-signal.js';

// Events
export type {
  AgentEvent,
  EventDraft,
  EventActions,
  EventError,
  Interrupt,
  FinalAnswer,
  RunStatus,
} from './events/agent-event.js';
export { agentEventSchema, parseAgentEvent } from './events/event-schema.js';
export { eventKind } from './events/event-kind.js';
export type { AgentEventKind } from './events/event-kind.js';

// Sessions
export type { Session, SessionKey, SessionSummary } from './sessions/session.js';
export { SESSION_SCHEMA_VERSION } from './sessions/session.js';
export type {
  SessionStore,
  CreateSessionInput,
  ListSessionsInput,
  SessionPage,
  DamagedSession,
  AppendOptions,
} from './sessions/session-store.js';
export { InMemorySessionStore } from './sessions/in-memory-session-store.js';
export { APP_PREFIX, USER_PREFIX, TEMP_PREFIX, stateScopeOf, splitStateDelta, withoutTempKeys } from './sessions/state-scope.js';
export type { StateScope, ScopedDelta } from './sessions/state-scope.js';
export { foldSessionState } from './sessions/fold-state.js';
export { applyStateActions, assertAppendScopes, eventForStorage } from './sessions/apply-state.js';
export { DeltaState } from './sessions/delta-state.js';
export { compareSummaries, encodeCursor, decodeCursor, pageSummaries } from './sessions/session-paging.js';
export { FileSessionStore } from './sessions/file-session-store.js';
export type { FileSessionStoreOptions } from './sessions/file-session-store.js';
export { assertSchemaVersion, assertExpectedVersion, assertPageLimit, decodeStoredEvent, eventsForStorage } from './sessions/stored-event.js';
export type { StoredEventRecord } from './sessions/stored-event.js';
export { MAX_ID_LENGTH, assertIdentifier, assertSessionKey, assertUserKey } from './sessions/session-key-rules.js';
export type { IdentifierField } from './sessions/session-key-rules.js';
export { MAX_STATE_DEPTH, assertJsonState, jsonStateValue, jsonStateDelta, jsonStateAppend } from './sessions/json-state.js';

// Agents
export type { Agent } from './agents/agent.js';
export { InvocationContext } from './agents/invocation-context.js';
export type { InvocationServices, LiveSession, ChildOptions } from './agents/invocation-context.js';
export { ReActAgent } from './agents/react-agent.js';
export type { ReActAgentOptions, Instruction } from './agents/react-agent.js';
export type { ReActHooks, HookContext, ToolHookContext, HookErrorSite } from './agents/react-hooks.js';
export { SequentialAgent } from './agents/sequential-agent.js';
export { ParallelAgent } from './agents/parallel-agent.js';
export { LoopAgent } from './agents/loop-agent.js';
export type { LoopAgentOptions } from './agents/loop-agent.js';
export { WorkflowAgent } from './agents/workflow-options.js';
export type { WorkflowAgentOptions } from './agents/workflow-options.js';
export { RunInterruptedSignal } from './agents/run-interrupted.js';
export { callModel } from './agents/model-call.js';
export { executeToolCalls, approvalInterruptId, toolInterruptId } from './agents/tool-execution.js';
export type { ToolExecutionOptions } from './agents/tool-execution.js';
export { abortErrorOf, raceAbort } from './agents/abort.js';
export { AsyncQueue } from './agents/async-queue.js';
export { assertAgentName, assertUniqueAgentNames } from './agents/agent-name.js';

// Context
export { buildContextMessages } from './context/build-context.js';
export {
  QUOTE_BEGIN,
  QUOTE_END,
  QUOTE_PREAMBLE,
  QUOTE_CONTINUATION,
  neutraliseMarkers,
  quotePreamble,
  quoteValue,
  quotedBlock,
} from './context/quoted-context.js';
export { MISSING_RESULT_OUTPUT } from './context/tool-pairing.js';
export type { ContextOptions, IncludeContents, IncludeSource } from './context/context-options.js';

// Planners
export type { ReActPlanner } from './planners/react-planner.js';
export { PlanReActPlanner } from './planners/plan-react-planner.js';
export { BuiltInPlanner } from './planners/built-in-planner.js';
export type { BuiltInPlannerOptions, ThinkingSettings } from './planners/built-in-planner.js';
export { PLAN_REACT_TAGS, splitPlanReActTags, joinPlanReActTags } from './messages/plan-react-tags.js';

// Runner
export { Runner } from './runner/runner.js';
export type { RunnerOptions, RunOptions, ResumeOptions } from './runner/runner.js';
export { Run } from './runner/run.js';
export type { RunResult } from './runner/run.js';
export { RunBudget } from './runner/run-limits.js';
export type { RunLimits } from './runner/run-limits.js';
export { readInvocation } from './runner/invocation-log.js';
export type { InvocationLog } from './runner/invocation-log.js';
export { costOf } from './runner/model-prices.js';
export type { ModelPrice, PriceTable } from './runner/model-prices.js';
export type { UsageBucket, UsageBreakdown } from './runner/usage-breakdown.js';
export type { SessionTotals } from './runner/session-totals.js';

// Observers
export type {
  RunObserver,
  RunLifecycleEvent,
  RunStartInfo,
  RunEndInfo,
  AgentScope,
  AgentStartInfo,
  AgentEndInfo,
  ModelCallStartInfo,
  ModelCallEndInfo,
  ToolCallStartInfo,
  ToolCallEndInfo,
  InterruptInfo,
  ResumeInfo,
} from './observe/run-observer.js';
export type { ObserverErrorHandler } from './observe/observer-hub.js';
export { runAgent } from './agents/run-agent.js';
export { requestChars, estimateTokens } from './observe/request-size.js';

// Errors
export { ReplanError, ConfigurationError, InvalidArgumentError } from './errors/replan-error.js';
export {
  MaxIterationsError,
  RunAbortedError,
  BudgetExceededError,
  ModelCallError,
  EmptyModelResponseError,
  OutputValidationError,
  UnknownInterruptError,
  NothingToResumeError,
} from './errors/run-errors.js';
export type { BudgetKind } from './errors/run-errors.js';
export { StateValueError } from './errors/state-value-error.js';
export {
  ConcurrentUpdateError,
  SessionBusyError,
  SessionNotFoundError,
  SessionExistsError,
  SessionCorruptError,
  SessionStoreError,
} from './errors/session-errors.js';
