import type { Message } from '../messages/message.js';
import type { Usage } from './usage.js';
import type { WorkLabel } from './work-label.js';

/** A tool as a model sees it: a name, what it does and its arguments as JSON Schema. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: Record<string, unknown>;
}

export type ToolChoice = 'auto' | 'required' | 'none' | { readonly name: string };

/** Ask for a structured answer that matches a JSON Schema. */
export interface ResponseFormat {
  readonly name: string;
  readonly schema: Record<string, unknown>;
  readonly strict?: boolean;
  readonly description?: string;
}

export interface ModelSettings {
  readonly temperature?: number;
  readonly maxTokens?: number;
  readonly topP?: number;
  /** Native thinking: effort for reasoning models, or a token budget where the provider takes one. */
  readonly reasoning?: { readonly effort?: 'minimal' | 'low' | 'medium' | 'high'; readonly budgetTokens?: number };
  /** Fields passed to the provider as they are (e.g. `{ top_k: 20 }`). */
  readonly extra?: Record<string, unknown>;
}

/**
 * How long a provider keeps a cached prompt prefix: `short` is its default (OpenAI `in-memory`,
 * Anthropic `5m`), `long` its extended retention (OpenAI `24h`, Anthropic `1h`).
 */
export type PromptCacheRetention = 'short' | 'long';

/**
 * Ask the provider to cache the request's prefix. A model maps it to what its server takes —
 * `prompt_cache_key` / `prompt_cache_retention` (OpenAI), `cache_control` breakpoints (Anthropic
 * models behind LiteLLM or OpenRouter) — or ignores it. It never changes the answer, only its price.
 */
export interface PromptCache {
  /** Requests that share a prefix and a key are routed to the same cache (e.g. one per session and role). */
  readonly key?: string;
  readonly retention?: PromptCacheRetention;
}

export interface ModelRequest {
  readonly messages: readonly Message[];
  readonly tools?: readonly ToolSpec[];
  readonly toolChoice?: ToolChoice;
  readonly responseFormat?: ResponseFormat;
  readonly settings?: ModelSettings;
  /** Prompt caching hints (see `PromptCache`); absent, nothing cache-related is sent. */
  readonly cache?: PromptCache;
}

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'refusal';

/** Which model produced a response: its `ChatModel.id` and, when it names one, its `ChatModel.provider`. */
export interface AnsweringModel {
  readonly id: string;
  readonly provider?: string;
}

export interface ModelResponse {
  /** The assistant message. */
  readonly message: Message;
  readonly finishReason: FinishReason;
  readonly usage?: Usage;
  /**
   * The model that actually answered, when the called `ChatModel` handed the request on (e.g.
   * `fallbackModel`): the stored event's `meta.model`, budgets and observers use it instead of the
   * called model's id. Absent for a model that answers itself.
   */
  readonly model?: AnsweringModel;
}

/** One piece of a streamed answer; the last part is always `finish` with the whole response. */
export type ModelStreamPart =
  | { readonly type: 'text-delta'; readonly delta: string }
  | { readonly type: 'reasoning-delta'; readonly delta: string }
  | {
      readonly type: 'tool-call-delta';
      readonly index: number;
      readonly id?: string;
      readonly name?: string;
      readonly argsDelta: string;
    }
  | { readonly type: 'finish'; readonly response: ModelResponse };

/** Who is calling a model: the agent's name and its path in the run (e.g. `plan_execute/execute_replan/executor/B`). */
export interface ModelCallAgent {
  readonly name: string;
  readonly path: string;
  /**
   * The label of the work the agent does, when a composite agent gave it one (`ctx.withLabel`;
   * plan–execute: the plan step's id or number and its task), e.g. for a scripted model to answer by it.
   */
  readonly label?: WorkLabel;
  /**
   * The run the call belongs to: its session and invocation (a resume continues the invocation).
   * E.g. for a scripted model that keeps each session's progress apart.
   */
  readonly run?: { readonly sessionId: string; readonly invocationId: string };
}

export interface ModelCallOptions {
  readonly signal?: AbortSignal;
  /**
   * The calling agent, passed by the core model-call primitive (`streamModelCall` / `callModel`), so a
   * model that answers many roles (e.g. a replay) knows which agent asks.
   */
  readonly agent?: ModelCallAgent;
}

/** A chat model. Implementations: `OpenAIChatModel` (@replan/providers), `ScriptedModel` (testing). */
export interface ChatModel {
  readonly id: string;
  /** Who serves the model (e.g. `openai`, `anthropic`), for observers (`gen_ai.provider.name`). */
  readonly provider?: string;
  /**
   * The model's context window in tokens, when known (given as an option, or reported by the
   * server): compaction uses it as its default `maxInputTokens`. Never guessed.
   */
  readonly contextWindow?: number;
  /**
   * The `provider` tags of the reasoning blocks this model sends back to its server (signatures,
   * encrypted or redacted reasoning, Gemini tool-call signatures under `gemini`); `[]` when it sends
   * none back. `fallbackModel` uses it to downgrade other providers' reasoning before calling this
   * model; a model that leaves it out is called with the request unchanged when it is the primary.
   */
  readonly reasoningProviders?: readonly string[];
  generate(req: ModelRequest, opts?: ModelCallOptions): Promise<ModelResponse>;
  stream(req: ModelRequest, opts?: ModelCallOptions): AsyncIterable<ModelStreamPart>;
}
