import type { AgentEvent } from '../events/agent-event.js';
import type { Message } from '../messages/message.js';
import type { ChatModel, FinishReason, ModelResponse } from '../models/chat-model.js';
import type { Usage } from '../models/usage.js';
import type { RequestChain, RequestRecord } from '../models/request-fingerprint.js';
import type { ModelMeta } from '../events/run-result.js';

/**
 * `meta.request` of an event that stores a model response: the request's fingerprint and parts,
 * plus what a replay needs to serve the response back verbatim when the event does not show it as
 * it came (an agent stored a rewritten message, e.g. the replanner's answer text instead of its
 * `respond` call) or when the finish reason is not the usual one.
 */
export interface StoredRequestRecord extends RequestRecord {
  /** The model's own message, when the event's `message` is not it. */
  readonly response?: Message;
  /** The finish reason, when it is not `tool_calls` (a message with tool calls) or `stop` (one without). */
  readonly finishReason?: FinishReason;
}

/**
 * One caller's model calls, kept on its `InvocationContext`: its last request's message chain
 * (so a fingerprint digests only new messages) and the response of its last call until an event
 * stores it. Every agent stores a response by passing its message (or, when it rewrites the
 * message, its usage) to `ctx.event` on the context that made the call, so the event is stamped
 * there — `meta.model` and `meta.request` — in one place, without each agent (ReAct, planner,
 * replanner, decision calls) carrying the model and request along. A plain field, no WeakMap:
 * this runs on every model call.
 */
export interface ModelCallMemo {
  readonly chain: RequestChain;
  pending: NotedResponse | undefined;
}

interface NotedResponse {
  readonly model: ModelMeta;
  readonly response: ModelResponse;
  readonly request: RequestRecord;
}

/** Notes that `model` (or the model the response names, when `model` handed the request on) answered `response` to a request described by `request` (called once a model call succeeded). */
export function noteModelResponse(memo: ModelCallMemo, response: ModelResponse, model: ChatModel, request: RequestRecord): void {
  memo.pending = { model: modelMetaOf(response.model ?? model), response, request };
}

/** One `meta.model` object per model, shared by the events it answered (kept in every stored response event). */
const modelMetas = new WeakMap<object, ModelMeta>();
function modelMetaOf(answered: { readonly id: string; readonly provider?: string }): ModelMeta {
  let meta = modelMetas.get(answered);
  if (!meta || meta.id !== answered.id || meta.provider !== answered.provider) {
    meta = Object.freeze(answered.provider ? { id: answered.id, provider: answered.provider } : { id: answered.id });
    modelMetas.set(answered, meta);
  }
  return meta;
}

const usualFinish = (message: Message): FinishReason => (message.content.some((b) => b.type === 'tool_call') ? 'tool_calls' : 'stop');

/**
 * Stamps an event that stores the caller's last model response (its message, or its usage under
 * a rewritten message): `meta.model` (which model reported its usage, so the session can be
 * priced) when it carries usage, and `meta.request` (a `StoredRequestRecord`, so a replay can
 * check and serve it). Each response is stamped once.
 */
export function stampModelResponse(memo: ModelCallMemo, event: { message?: Message; usage?: Usage; meta?: AgentEvent['meta'] }): void {
  const entry = memo.pending;
  if (!entry) return;
  const { message, finishReason, usage } = entry.response;
  if (event.message !== message && (event.usage === undefined || event.usage !== usage)) return;
  memo.pending = undefined;
  let request: StoredRequestRecord = entry.request;
  const usual = finishReason === usualFinish(message);
  if (event.message !== message || !usual)
    request = { ...request, ...(event.message !== message ? { response: message } : {}), ...(usual ? {} : { finishReason }) };
  // One literal, not a property added after: the object stays small (it is kept in every stored response event).
  event.meta = event.usage && event.meta?.model === undefined ? { ...event.meta, request, model: entry.model } : { ...event.meta, request };
}
