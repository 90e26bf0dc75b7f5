import { ConfigurationError } from '@replan/core';
import { imageTypeSet } from '@replan/core/agent-kit';
import { modelNameOf } from './model-name.js';
import type { ChatModel, ModelCallOptions, ModelRequest, ModelResponse, ModelSettings, ModelStreamPart } from '@replan/core';
import type OpenAI from 'openai';
import { ChatAccumulator } from './chat/chat-accumulator.js';
import { buildChatRequest, type ChatRequestBody } from './chat/chat-request.js';
import { baseURLOf, createOpenAIClient, type ClientOptions } from './client.js';
import { ModelError } from '@replan/core';
import { withRetries, type RetryOptions } from './retry/request-retries.js';
import { fromErrorPayload, toModelError } from './errors/map-error.js';
import { defaultPromptCaching, PROMPT_CACHING, type PromptCaching } from './cache/prompt-caching.js';
import { detectProfile, isGoogleEndpoint, reasoningProvidersOf, type ProviderProfileName } from './profiles/provider-profile.js';
import { isRecord, type Json } from './reasoning/json.js';
import type { ThinkTagsMode } from './reasoning/think-tags.js';
import { withStructuredText } from './structured-text.js';
import { detectMediaProfile, type MediaProfileName } from './media/media-profile.js';
import { guardedStream, type SdkStream } from './stream/guarded-stream.js';
import { callSignal } from './call-signal.js';

export interface OpenAIChatModelOptions extends ClientOptions, RetryOptions {
  /** The model name the server knows (`gpt-4o-mini`, `deepseek-chat`, `llama3.1`, `anthropic/claude-sonnet-4`, ...). */
  readonly model: string;
  /**
   * Use this client instead of making one (its `fetch` is not wrapped: error bodies of unusual shapes are not captured).
   * Made from your app's `openai` (6 or 7), the same copy this package uses: `openai` is its peer dependency.
   */
  readonly client?: OpenAI;
  /** Defaults for every request; a request's own settings win. */
  readonly settings?: ModelSettings;
  /** How reasoning goes back and settings are named; detected from `baseURL` and `model` when absent. */
  readonly profile?: ProviderProfileName;
  /**
   * What the server takes as images and files (`openai`, `gemini`, `ollama`, `litellm`,
   * `openrouter`, `generic`); detected from `baseURL` and the profile when absent.
   */
  readonly media?: MediaProfileName;
  /**
   * The image types the model takes, replacing its media profile's (OpenAI, OpenRouter, LiteLLM
   * and generic servers: PNG, JPEG, WebP, GIF — `COMMON_IMAGE_TYPES`). An image of another type is
   * refused with `UnsupportedMediaError` before the request (one a tool returned is told to the
   * model as text instead). E.g. `[...COMMON_IMAGE_TYPES, 'image/heic']` for a server that takes HEIC.
   */
  readonly imageTypes?: readonly string[];
  /** Longest wait between two stream chunks before the call fails with a `ModelError` of kind `timeout`, ms (default 300 000; 0 = none). */
  readonly idleTimeoutMs?: number;
  /** Ask for usage on streams (`stream_options.include_usage`, default true); turn off for servers that reject it. */
  readonly streamUsage?: boolean;
  /**
   * Thinking written into the content as `<think>…</think>` (servers without a reasoning parser):
   * `auto` (default) reads it when the content starts with `<think>`, `on` also when the opening
   * tag is missing (DeepSeek-R1 distills), `off` leaves the content alone. It becomes a `reasoning`
   * block with provider `think-tags`, streamed as `reasoning-delta`s.
   */
  readonly thinkTags?: ThinkTagsMode;
  /**
   * How a request's `cache` goes on the wire: `key` (`prompt_cache_key`, `prompt_cache_retention`),
   * `breakpoints` (`cache_control` on the system message, the last tool and the last user message)
   * or `none`. Default from the profile: `key` for `openai`, `breakpoints` for `anthropic` and
   * for Claude on `openrouter`, else `none`.
   */
  readonly promptCaching?: PromptCaching;
  /**
   * The model's context window in tokens, as its provider documents it. Compaction uses it as its
   * default `maxInputTokens`; nothing is guessed when it is absent.
   */
  readonly contextWindow?: number;
  /** The model's id for budgets and logs (default: `model`). */
  readonly id?: string;
}

const DEFAULT_IDLE_TIMEOUT_MS = 300_000;

/**
 * A `ChatModel` over the Chat Completions API of OpenAI or any OpenAI-compatible server (LiteLLM,
 * vLLM, Ollama, DeepSeek, OpenRouter, Gemini's compatible endpoint). Streams are accumulated here,
 * not by the SDK's helper (which loses reasoning fragments and index-less tool calls); every
 * reasoning shape becomes `reasoning` blocks and goes back the way the provider needs.
 */
export class OpenAIChatModel implements ChatModel {
  readonly id: string;
  readonly model: string;
  /** The context window given in the options (tokens), if any. */
  readonly contextWindow?: number;
  readonly profile: ProviderProfileName;
  /** What the server takes as images and files (see `OpenAIChatModelOptions.media`). */
  readonly media: MediaProfileName;
  /** The image types it takes when `imageTypes` was given (else its media profile's). */
  private readonly imageTypes: ReadonlySet<string> | undefined;
  /** The reasoning this model sends back, by its blocks' `provider` tag: its profile's own (see `reasoningProvidersOf`). */
  readonly reasoningProviders: readonly string[];
  readonly client: OpenAI;
  /** How `<think>…</think>` in the content is read (see `OpenAIChatModelOptions.thinkTags`). */
  readonly thinkTags: ThinkTagsMode;
  /** How a request's `cache` is sent (see `OpenAIChatModelOptions.promptCaching`). */
  readonly promptCaching: PromptCaching;
  private readonly googleEndpoint: boolean;
  private readonly idleTimeoutMs: number;

  constructor(private readonly options: OpenAIChatModelOptions) {
    this.model = modelNameOf('OpenAIChatModel', options);
    this.id = options.id ?? options.model;
    if (options.contextWindow !== undefined) {
      if (!Number.isInteger(options.contextWindow) || options.contextWindow < 1)
        throw new ConfigurationError(`OpenAIChatModel "${options.model}": contextWindow must be a positive integer (tokens).`);
      this.contextWindow = options.contextWindow;
    }
    const baseURL = options.client ? options.client.baseURL : baseURLOf(options);
    this.profile = options.profile ?? detectProfile(baseURL, options.model);
    this.googleEndpoint = isGoogleEndpoint(baseURL);
    this.reasoningProviders = reasoningProvidersOf(this.profile);
    this.media = options.media ?? detectMediaProfile(baseURL, this.profile);
    this.imageTypes = options.imageTypes ? imageTypeSet(options.imageTypes, `OpenAIChatModel "${options.model}"`) : undefined;
    // The SDK's own retries are off: `withRetries` makes them, visibly (`onRetry`).
    this.client = options.client ?? createOpenAIClient({ ...options, maxRetries: 0 });
    this.idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    this.thinkTags = options.thinkTags ?? 'auto';
    if (options.promptCaching !== undefined && !PROMPT_CACHING.includes(options.promptCaching))
      throw new ConfigurationError(
        `OpenAIChatModel "${options.model}": promptCaching must be one of ${PROMPT_CACHING.join(', ')}; got ${JSON.stringify(options.promptCaching)}.`,
      );
    this.promptCaching = options.promptCaching ?? defaultPromptCaching(this.profile, options.model);
  }

  /** The request body this model would send (without `stream`); useful to inspect or log. */
  buildRequest(req: ModelRequest): ChatRequestBody {
    return buildChatRequest(req, {
      model: this.model,
      profile: this.profile,
      googleEndpoint: this.googleEndpoint,
      caching: this.promptCaching,
      media: this.media,
      ...(this.imageTypes ? { imageTypes: this.imageTypes } : {}),
      ...(this.options.settings ? { defaults: this.options.settings } : {}),
    });
  }

  private accumulator(): ChatAccumulator {
    return new ChatAccumulator(this.profile, this.thinkTags);
  }

  /** One SDK call, retried as the options say (each retry reported to `onRetry`). */
  private send<T>(call: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    return withRetries(call, this.options, {
      model: this.model,
      baseURL: this.client.baseURL,
      signal,
      ownClient: this.options.client !== undefined,
    });
  }

  async generate(req: ModelRequest, opts?: ModelCallOptions): Promise<ModelResponse> {
    const { body, structuredSchema } = this.buildRequest(req);
    let raw: unknown;
    const call = callSignal(opts?.signal);
    try {
      raw = await this.send(() => this.client.chat.completions.create(body as never, { signal: call.signal }), opts?.signal);
    } catch (error) {
      throw toModelError(error, { model: this.model });
    } finally {
      call.release();
    }
    const completion = isRecord(raw) ? raw : {};
    const choice = Array.isArray(completion.choices) ? (completion.choices as unknown[])[0] : undefined;
    if (!isRecord(choice)) {
      if (completion.error !== undefined && completion.error !== null) throw fromErrorPayload(completion, { model: this.model });
      throw new ModelError({
        kind: 'unknown',
        retryable: true,
        providerMessage: `the response has no choices: ${JSON.stringify(raw).slice(0, 500)}`,
        model: this.model,
        body: raw,
      });
    }
    const acc = this.accumulator();
    acc.push(choice.message, true);
    acc.end();
    acc.finish(choice.finish_reason);
    acc.addUsage(completion.usage);
    if (completion.error !== undefined && completion.error !== null)
      throw fromErrorPayload(completion, { model: this.model, partial: acc.message() });
    return withStructuredText(acc.response(), structuredSchema);
  }

  async *stream(req: ModelRequest, opts?: ModelCallOptions): AsyncGenerator<ModelStreamPart, void, undefined> {
    const { body, structuredSchema } = this.buildRequest(req);
    const signal = opts?.signal;
    const streamBody: Json = { ...body, stream: true };
    if (this.options.streamUsage !== false) streamBody.stream_options = { include_usage: true };
    const call = callSignal(signal);
    try {
      yield* this.streamWith(streamBody, structuredSchema, signal, call.signal);
    } finally {
      call.release();
    }
  }

  private async *streamWith(
    streamBody: Json,
    structuredSchema: ChatRequestBody['structuredSchema'],
    signal: AbortSignal | undefined,
    sdkSignal: AbortSignal | undefined,
  ): AsyncGenerator<ModelStreamPart, void, undefined> {
    let stream: SdkStream;
    try {
      stream = (await this.send(() => this.client.chat.completions.create(streamBody as never, { signal: sdkSignal }), signal)) as never;
    } catch (error) {
      throw toModelError(error, { model: this.model });
    }
    const acc = this.accumulator();
    const partial = () => acc.message();
    for await (const chunk of guardedStream(stream, { model: this.model, idleTimeoutMs: this.idleTimeoutMs, signal, partial })) {
      if (chunk.error !== undefined && chunk.error !== null) throw fromErrorPayload(chunk, { model: this.model, partial: partial() });
      acc.addUsage(chunk.usage);
      if (!Array.isArray(chunk.choices)) continue;
      for (const choice of chunk.choices as unknown[]) {
        if (!isRecord(choice) || (typeof choice.index === 'number' && choice.index !== 0)) continue;
        yield* acc.push(choice.delta);
        acc.finish(choice.finish_reason);
      }
    }
    yield* acc.end();
    if (!acc.receivedAnything)
      throw new ModelError({ kind: 'unknown', retryable: true, providerMessage: 'the stream ended without any output', model: this.model });
    yield { type: 'finish', response: withStructuredText(acc.response(), structuredSchema) };
  }
}
