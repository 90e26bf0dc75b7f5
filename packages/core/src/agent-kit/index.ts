/**
 * `@replan/core/agent-kit` — what you need to write your own agent (an `Agent` whose `run(ctx)`
 * yields events) or a package of agents such as `@replan/planexecute`. An application that only
 * composes the agents replan ships does not need it.
 *
 * - `InvocationContext`: an agent's view of a running invocation. `ctx.event(draft)` stamps the
 *   events you yield; `ctx.child(agent, { pathSegment?, branch?, scopeStart? })` gives a sub-agent
 *   its own path, branch and history; `ctx.withSignal(signal)` stops one group of sub-agents;
 *   `runAgent(childCtx)` runs a sub-agent so that observers see it start and end.
 * - Model calls: `streamModelCall` is the one primitive (budget check, usage, error mapping,
 *   abort); `callModel` builds on it and turns deltas into partial events when the caller streams.
 * - Tool calls: `executeToolCalls` runs a model's tool calls concurrently, stores each result as it
 *   finishes, and handles approvals and interrupts (`approvalInterruptId`, `toolInterruptId`).
 *   `toolCallRun(toolCtx)` gives a tool its run: the invocation (to run tools of its own with
 *   `executeToolCalls`) and `record(draft)`, which stores an event of its own and resolves once
 *   it is durable (`meta.codeCall` marks inner calls, which no model sees).
 * - Context: `buildContextMessages` turns the session's events into the messages a model sees;
 *   `quoteValue`, `quotedBlock` and `quotePreamble` fence data (tool output, other agents' words)
 *   in a prompt so it cannot pose as the prompt's own text (`QUOTE_BEGIN`, `QUOTE_END`, …);
 *   `headTailPreview` shortens a long value the way offloaded tool results are shown.
 * - Prompt caching: `requestCache` makes a request's `cache` from an agent's `PromptCacheOptions`.
 * - Models: `retryModelCall` is the one retry loop of a model call (retries a `ModelError` while it
 *   is `retryable`, honours `retryAfterMs`, stops waiting on abort); `kindOfStatus` maps an HTTP status;
 *   `imageTypeRefusal` is the check a model makes before it sends an image (refused:
 *   `UnsupportedMediaError`, or for a tool's image the `unsentToolMediaText` the model reads).
 * - Fallback: `modelErrorKindOf` reads the `ModelError` kind of any failure, as `fallbackModel` does.
 * - Stopping: `abortErrorOf`, `raceAbort`, `RunInterruptedSignal`; `AsyncQueue` merges the
 *   events of sub-agents that run at once.
 *
 * - Readers of a log (UI streams, servers, views): `withheldAnswers` (and `AnswerGate`, live)
 *   tell which answers an output guardrail blocked, so a reader never shows them;
 *   `guardrailBlockOf` / `guardrailBlockText` read and word the block.
 *
 * See docs/extending.md ("Writing an agent").
 * @module
 */
export { InvocationContext } from '../invocation/invocation-context.js';
export type { RunnableAgent } from '../invocation/invocation-context.js';
export { RunBudget } from '../invocation/run-limits.js';
export { RunInterruptedSignal } from '../invocation/run-interrupted.js';
export { assertAgentName } from '../invocation/agent-name.js';
export { runAgent } from '../invocation/run-agent.js';
export { retryModelCall } from '../models/model-retries.js';
export { modelErrorKindOf, kindOfStatus } from '../models/model-error-kind-of.js';
export { imageTypeRefusal, imageTypeSet, normalMediaType, unsentToolMediaText } from '../messages/image-types.js';

// Model and tool calls
export { streamModelCall, callModel } from '../invocation/model-call.js';
export { executeToolCalls, approvalInterruptId, toolInterruptId } from '../agents/tool-execution.js';
export { toolSpecOf, toolParametersSchema } from '../tools/tool.js';
export { InterruptSignal } from '../tools/interrupt-signal.js';
export { toolCallRun } from '../invocation/tool-call-run.js';
export type { ToolCallRun } from '../invocation/tool-call-run.js';
export { agentToolParameters } from '../composition/agent-tool.js';
export { AGENT_TOOL_INPUT_KIND } from '../sessions/child-session-link.js';

// Context a model sees
export { buildContextMessages } from '../context/build-context.js';
export { QUOTE_BEGIN, QUOTE_END, neutraliseMarkers, quotePreamble, quoteValue, quotedBlock } from '../context/quoted-context.js';
export { headTailPreview } from '../tools/offload/tool-result-preview.js';
export { splitPlanReActTags, joinPlanReActTags } from '../reasoning/plan-react-tags.js';
export { callModelThrough } from '../middleware/call-model-through.js';

// Stopping and concurrency
export { abortErrorOf, raceAbort } from '../errors/abort.js';
export { AsyncQueue } from '../invocation/async-queue.js';
export { AnswerGate, withheldAnswers } from '../guardrails/answer-gate.js';
export type { GateRelease, WithheldAnswer } from '../guardrails/answer-gate.js';
export { guardrailBlockOf, guardrailBlockText } from '../guardrails/guardrail-block.js';

// What a model or a tool reads (moved from the root in 0.2)
export type { ModelStreamPart, ModelCallAgent, ToolChoice, ResponseFormat, FinishReason, PromptCache } from '../models/chat-model.js';
export { addUsage, emptyUsage, totalTokens } from '../models/usage.js';
export type { UsageBreakdown, UsageBucket } from '../models/usage-breakdown.js';
export { isMediaBlock, isBase64, mediaByteLength, toolResultContent } from '../messages/media-check.js';
export { mediaPlaceholder } from '../messages/message.js';
export type { SchemaParse } from '../tools/schemas/resolve-schema.js';
export { promptCacheKey } from '../prompt-cache/prompt-cache.js';
export { childSessionId } from '../sessions/child-session-link.js';
export { childSessionRoot } from '../sessions/child-session-root.js';
export type { ChildSessionRoot } from '../sessions/child-session-root.js';
