import { ConfigurationError } from '@replan/core';
import { modelNameOf } from '../model-name.js';
import type { ChatModel, ContentBlock, ModelCallOptions, ModelRequest, ModelResponse, ModelSettings, ModelStreamPart } from '@replan/core';
import type OpenAI from 'openai';
import { createOpenAIClient, type ClientOptions } from '../client.js';
import { fromErrorPayload, toModelError } from '../errors/map-error.js';
import { ModelError } from '@replan/core';
import { withRetries, type RetryOptions } from '../retry/request-retries.js';
import { isRecord, type Json } from '../reasoning/json.js';
import { callSignal } from '../call-signal.js';
import { guardedStream, type SdkStream } from '../stream/guarded-stream.js';
import { withStructuredText } from '../structured-text.js';
import { blocksOfOutput, responseOf } from './responses-output.js';
import { buildResponsesRequest, RESPONSES_PROVIDER, type ResponsesRequestBody } from './responses-request.js';

export interface OpenAIResponsesModelOptions extends ClientOptions, RetryOptions {
  readonly model: string;
  /** Use this client instead of making one: made from your app's `openai` (6 or 7, this package's peer dependency). */
  readonly client?: OpenAI;
  readonly settings?: ModelSettings;
  /** Ask for `reasoning.encrypted_content` (default true); turn off for a model that rejects it. */
  readonly includeEncryptedReasoning?: boolean;
  /** Reasoning summaries to ask for; `auto` whenever the request asks for reasoning. */
  readonly reasoningSummary?: 'auto' | 'concise' | 'detailed';
  /** Longest wait between two stream events, ms (default 300 000; 0 = none). */
  readonly idleTimeoutMs?: number;
  /**
   * The model's context window in tokens, as its provider documents it. Compaction uses it as its
   * default `maxInputTokens`; nothing is guessed when it is absent.
   */
  readonly contextWindow?: number;
  /**
   * How a request's `cache` goes on the wire: `key` (default: `prompt_cache_key`,
   * `prompt_cache_retention`) or `none` for a Responses server that refuses those fields.
   */
  readonly promptCaching?: 'key' | 'none';
  readonly id?: string;
}

/**
 * A `ChatModel` over OpenAI's Responses API, for reasoning models that refuse tools with reasoning
 * on Chat Completions. Stateless (`store: false`): reasoning items come back as `reasoning` blocks
 * (summary text, `encrypted_content`) and are sent back on the next turn with the ids that pair
 * them with their function calls.
 */
export class OpenAIResponsesModel implements ChatModel {
  readonly id: string;
  readonly model: string;
  /** The context window given in the options (tokens), if any. */
  readonly contextWindow?: number;
  /** Sends back only the reasoning items of the Responses API (blocks tagged `openai`). */
  readonly reasoningProviders: readonly string[] = [RESPONSES_PROVIDER];
  readonly client: OpenAI;
  private readonly idleTimeoutMs: number;

  constructor(private readonly options: OpenAIResponsesModelOptions) {
    this.model = modelNameOf('OpenAIResponsesModel', options);
    this.id = options.id ?? options.model;
    if (options.contextWindow !== undefined) {
      if (!Number.isInteger(options.contextWindow) || options.contextWindow < 1)
        throw new ConfigurationError(`OpenAIResponsesModel "${options.model}": contextWindow must be a positive integer (tokens).`);
      this.contextWindow = options.contextWindow;
    }
    // The SDK's own retries are off: `withRetries` makes them, visibly (`onRetry`).
    this.client = options.client ?? createOpenAIClient({ ...options, maxRetries: 0 });
    this.idleTimeoutMs = options.idleTimeoutMs ?? 300_000;
    if (options.promptCaching !== undefined && options.promptCaching !== 'key' && options.promptCaching !== 'none')
      throw new ConfigurationError(
        `OpenAIResponsesModel "${options.model}": promptCaching must be 'key' or 'none'; got ${JSON.stringify(options.promptCaching)}.`,
      );
  }

  buildRequest(req: ModelRequest): ResponsesRequestBody {
    return buildResponsesRequest(req, {
      model: this.model,
      ...(this.options.settings ? { defaults: this.options.settings } : {}),
      ...(this.options.includeEncryptedReasoning !== undefined
        ? { includeEncryptedReasoning: this.options.includeEncryptedReasoning }
        : {}),
      ...(this.options.reasoningSummary ? { reasoningSummary: this.options.reasoningSummary } : {}),
      ...(this.options.promptCaching === 'none' ? { promptCacheKey: false } : {}),
    });
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
      raw = await this.send(() => this.client.responses.create(body as never, { signal: call.signal }), opts?.signal);
    } catch (error) {
      throw toModelError(error, { model: this.model });
    } finally {
      call.release();
    }
    if (!isRecord(raw))
      throw new ModelError({
        kind: 'unknown',
        retryable: true,
        providerMessage: 'the response is not an object',
        model: this.model,
        body: raw,
      });
    if (raw.status === 'failed' || (isRecord(raw.error) && !Array.isArray(raw.output)))
      throw fromErrorPayload({ error: raw.error ?? 'the response failed' }, { model: this.model, partial: responseOf(raw).message });
    return withStructuredText(responseOf(raw), structuredSchema);
  }

  async *stream(req: ModelRequest, opts?: ModelCallOptions): AsyncGenerator<ModelStreamPart, void, undefined> {
    const call = callSignal(opts?.signal);
    try {
      yield* this.streamWith(req, opts?.signal, call.signal);
    } finally {
      call.release();
    }
  }

  private async *streamWith(
    req: ModelRequest,
    signal: AbortSignal | undefined,
    sdkSignal: AbortSignal | undefined,
  ): AsyncGenerator<ModelStreamPart, void, undefined> {
    const { body, structuredSchema } = this.buildRequest(req);
    let stream: SdkStream;
    try {
      stream = (await this.send(
        () => this.client.responses.create({ ...body, stream: true } as never, { signal: sdkSignal }),
        signal,
      )) as never;
    } catch (error) {
      throw toModelError(error, { model: this.model });
    }
    const done: unknown[] = []; // output items finished so far, for the partial output of a failure
    const partial = () => ({ role: 'assistant' as const, content: blocksOfOutput(done).blocks as ContentBlock[] });
    const toolIndex = new Map<number, number>();
    let final: Json | undefined;
    for await (const event of guardedStream(stream, { model: this.model, idleTimeoutMs: this.idleTimeoutMs, signal, partial })) {
      switch (event.type) {
        case 'response.output_text.delta':
        case 'response.refusal.delta':
          if (typeof event.delta === 'string' && event.delta) yield { type: 'text-delta', delta: event.delta };
          break;
        case 'response.reasoning_summary_text.delta':
        case 'response.reasoning_text.delta':
          if (typeof event.delta === 'string' && event.delta) yield { type: 'reasoning-delta', delta: event.delta };
          break;
        case 'response.output_item.added': {
          const item = isRecord(event.item) ? event.item : {};
          if (item.type === 'function_call' && typeof event.output_index === 'number') {
            const index = toolIndex.size;
            toolIndex.set(event.output_index, index);
            yield {
              type: 'tool-call-delta',
              index,
              ...(typeof item.call_id === 'string' ? { id: item.call_id } : {}),
              ...(typeof item.name === 'string' ? { name: item.name } : {}),
              argsDelta: '',
            };
          }
          break;
        }
        case 'response.function_call_arguments.delta': {
          const index = typeof event.output_index === 'number' ? toolIndex.get(event.output_index) : undefined;
          if (index !== undefined && typeof event.delta === 'string') yield { type: 'tool-call-delta', index, argsDelta: event.delta };
          break;
        }
        case 'response.output_item.done':
          if (event.item !== undefined) done.push(event.item);
          break;
        case 'response.completed':
        case 'response.incomplete':
          if (isRecord(event.response)) final = event.response;
          break;
        case 'response.failed': {
          const response = isRecord(event.response) ? event.response : {};
          throw fromErrorPayload({ error: response.error ?? 'the response failed' }, { model: this.model, partial: partial() });
        }
        case 'error':
          throw fromErrorPayload(isRecord(event.error) ? event : { error: event }, { model: this.model, partial: partial() });
      }
    }
    if (!final)
      throw new ModelError({
        kind: 'unknown',
        retryable: true,
        providerMessage: 'the stream ended before response.completed',
        model: this.model,
        partial: partial(),
      });
    yield { type: 'finish', response: withStructuredText(responseOf(final), structuredSchema) };
  }
}
