import type { LanguageModelV3, SharedV3ProviderOptions } from '@ai-sdk/provider';
import { COMMON_IMAGE_TYPES, ConfigurationError, ModelError } from '@replan/core';
import { imageTypeSet } from '@replan/core/agent-kit';
import type { ChatModel, ModelCallOptions, ModelRequest, ModelResponse, ModelSettings, ModelStreamPart } from '@replan/core';
import { callOptionsOf, mergeSettings } from './call-options.js';
import type { AiSdkLanguageModel } from './language-model-v4.js';
import { toModelError } from './map-error.js';
import { withRetries, type RetryOptions } from './model-retries.js';
import { reasoningTagOf } from './provider-metadata.js';
import { ResponseAssembler, StreamErrorPart, type AssemblerSink } from './response-assembler.js';
import { readWithin } from './read-within.js';
import type { MediaTarget } from './media-parts.js';
import { toPrompt } from './to-prompt.js';
import { asV3 } from './v4-adapter.js';

/** Default `idleTimeoutMs`: five minutes, as `@replan/providers`' models. */
const DEFAULT_IDLE_TIMEOUT_MS = 300_000;

export interface AiSdkModelOptions extends RetryOptions {
  /** The model's id for budgets, prices and logs (default: the language model's `modelId`). */
  readonly id?: string;
  /**
   * The model's context window in tokens, as its provider documents it. Compaction uses it as its
   * default `maxInputTokens`; nothing is guessed when it is absent.
   */
  readonly contextWindow?: number;
  /** Defaults for every request; a request's own settings win. */
  readonly settings?: ModelSettings;
  /** Provider options sent with every call (e.g. `{ anthropic: { cacheControl: { type: 'ephemeral' } } }`), merged over what the settings make. */
  readonly providerOptions?: SharedV3ProviderOptions;
  /** HTTP headers sent with every call (for HTTP-based providers). */
  readonly headers?: Record<string, string>;
  /**
   * Longest wait between two parts of a stream before the call fails with a `ModelError` of kind `timeout` and its
   * request is cancelled, ms (default 300 000; 0 = none).
   */
  readonly idleTimeoutMs?: number;
  /**
   * Told of what replan cannot use: a provider's warning (an unsupported setting), a part type it
   * has no block for (ignored), a block a prompt cannot carry. Each message once per model.
   * Default: one `console.warn` line each.
   */
  readonly onWarning?: (message: string) => void;
  /**
   * The image types the model takes (default `COMMON_IMAGE_TYPES`: PNG, JPEG, WebP, GIF, what
   * OpenAI, Anthropic and most others share). An image of another type in a user message is refused
   * with `UnsupportedMediaError` before the request; one a tool returned is told to the model as
   * text instead. E.g. `[...COMMON_IMAGE_TYPES, 'image/heic', 'image/heif']` for Gemini.
   */
  readonly imageTypes?: readonly string[];
}

/**
 * Any AI SDK language model — `LanguageModelV3` (ai@6, `@ai-sdk/provider@3`) or `LanguageModelV4`
 * (ai@7, `@ai-sdk/provider@4`), told apart at run time: `anthropic('claude-…')`,
 * `google('gemini-…')`, `bedrock(…)`, an OpenAI-compatible server, …) as a replan `ChatModel`.
 * Reasoning keeps its provider metadata, so Anthropic thinking signatures and Gemini thought
 * signatures go back on the next turn; failures are core's `ModelError` (`kind`: `rate_limit`
 * with `retryAfterMs`, `context_length`, `auth`, `invalid_request`, `overloaded` …; the provider's
 * `APICallError` as `cause`) and retryable ones are retried. Calls go straight to `doGenerate` / `doStream`: URLs in the prompt
 * are passed to the provider, not downloaded.
 */
export function aiSdkModel(languageModel: AiSdkLanguageModel, options: AiSdkModelOptions = {}): AiSdkChatModel {
  return new AiSdkChatModel(languageModel, options);
}

/** The `ChatModel` `aiSdkModel` returns; `languageModel` is the AI SDK model it calls. */
export class AiSdkChatModel implements ChatModel {
  readonly id: string;
  /**
   * Who serves the model, for observers: the first part of the language model's `provider`
   * (`anthropic` for `anthropic.messages`, `google` for `google.generative-ai`).
   */
  readonly provider: string;
  readonly contextWindow?: number;
  /** The `provider` tags of the reasoning this model sends back (its provider's namespace; Google's is `gemini`). */
  readonly reasoningProviders: readonly string[];
  private readonly namespace: string;
  /** The model called: `languageModel` itself (v3), or a v4 model seen as v3. */
  private readonly caller: LanguageModelV3;
  private readonly spec: 'v3' | 'v4';
  private readonly warned = new Set<string>();
  /** Who the model is, for media: its id, provider and the image types it takes (`imageTypes`). */
  private readonly media: MediaTarget;

  constructor(
    readonly languageModel: AiSdkLanguageModel,
    private readonly options: AiSdkModelOptions = {},
  ) {
    const spec = (languageModel as { specificationVersion?: unknown } | undefined)?.specificationVersion;
    if (spec !== 'v3' && spec !== 'v4')
      throw new ConfigurationError(
        `aiSdkModel: expected an AI SDK language model of specification v3 (ai@6, @ai-sdk/provider@3) or v4 (ai@7, @ai-sdk/provider@4) and a provider package of that generation; got ${
          typeof languageModel === 'string' ? `the string ${JSON.stringify(languageModel)}` : `specification ${JSON.stringify(spec)}`
        }. Pass a provider's model object, e.g. anthropic('claude-sonnet-4-5').`,
      );
    this.spec = spec;
    this.caller = languageModel.specificationVersion === 'v4' ? asV3(languageModel) : languageModel;
    this.id = options.id ?? languageModel.modelId;
    this.namespace = languageModel.provider.split('.')[0] ?? languageModel.provider;
    this.provider = this.namespace;
    this.reasoningProviders = [reasoningTagOf(this.namespace)];
    if (options.contextWindow !== undefined) {
      if (!Number.isInteger(options.contextWindow) || options.contextWindow < 1)
        throw new ConfigurationError(`aiSdkModel "${this.id}": contextWindow must be a positive integer (tokens).`);
      this.contextWindow = options.contextWindow;
    }
    const idle = options.idleTimeoutMs;
    if (idle !== undefined && !(Number.isFinite(idle) && idle >= 0))
      throw new ConfigurationError(
        `aiSdkModel "${this.id}": idleTimeoutMs must be a number of milliseconds, 0 or more (0 = no idle timeout).`,
      );
    const imageTypes = imageTypeSet(options.imageTypes ?? COMMON_IMAGE_TYPES, `aiSdkModel "${this.id}"`);
    this.media = { model: this.id, provider: languageModel.provider, imageTypes };
  }

  async generate(req: ModelRequest, opts?: ModelCallOptions): Promise<ModelResponse> {
    const call = this.callOptions(req, opts);
    const result = await withRetries(() => this.caller.doGenerate(call), this.options, this.id, opts?.signal);
    const acc = new ResponseAssembler(this.sink);
    for (const warning of result.warnings ?? []) acc.push({ type: 'stream-start', warnings: [warning] });
    acc.addContent(result.content);
    acc.finish(result.finishReason, result.usage);
    return this.responseOf(acc);
  }

  async *stream(req: ModelRequest, opts?: ModelCallOptions): AsyncGenerator<ModelStreamPart, void, undefined> {
    const call = this.callOptions(req, opts);
    const { stream } = await withRetries(() => this.caller.doStream(call), this.options, this.id, opts?.signal);
    const acc = new ResponseAssembler(this.sink);
    const idleTimeoutMs = this.options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    const reader = stream.getReader();
    try {
      for (;;) {
        const next = await readWithin(reader, idleTimeoutMs).catch((error: unknown) => {
          throw toModelError(error, { model: this.id, partial: acc.message() });
        });
        if (next === 'timeout')
          throw new ModelError({
            kind: 'timeout',
            hint: 'raise idleTimeoutMs if the model may stay silent this long',
            model: this.id,
            providerMessage: `the stream sent nothing for ${idleTimeoutMs} ms (idleTimeoutMs)`,
            partial: acc.message(),
          });
        if (next.done) break;
        try {
          yield* acc.push(next.value);
        } catch (error) {
          if (error instanceof StreamErrorPart) throw toModelError(error.error, { model: this.id, partial: acc.message() });
          throw error;
        }
      }
    } finally {
      // A consumer that stops early (an abort, a break) cancels the provider's stream and its HTTP request.
      await reader.cancel().catch(() => {});
      reader.releaseLock();
    }
    if (!acc.receivedAnything)
      throw new ModelError({ kind: 'unknown', retryable: true, model: this.id, providerMessage: 'the stream ended without any output' });
    yield { type: 'finish', response: this.responseOf(acc) };
  }

  private callOptions(req: ModelRequest, opts: ModelCallOptions | undefined) {
    const settings = mergeSettings(this.options.settings, req.settings);
    return {
      ...callOptionsOf(req, settings, this.namespace, this.options.providerOptions, this.spec),
      prompt: toPrompt(req.messages, (what) => this.warnOnce(`${what} cannot be sent to an AI SDK model; it was left out`), this.media),
      ...(this.options.headers ? { headers: this.options.headers } : {}),
      ...(opts?.signal ? { abortSignal: opts.signal } : {}),
    };
  }

  private responseOf(acc: ResponseAssembler): ModelResponse {
    const response = acc.response();
    if (response) return response;
    throw new ModelError({
      kind: 'unknown',
      retryable: true,
      model: this.id,
      providerMessage: `the model finished with an error${acc.rawFinishReason ? ` (${acc.rawFinishReason})` : ''}`,
      partial: acc.message(),
    });
  }

  private readonly sink: AssemblerSink = {
    ignore: (type) => this.warnOnce(`the model returned a part of type "${type}", which replan has no block for; it was ignored`),
    warn: (message) => this.warnOnce(`the provider warned: ${message}`),
  };

  private warnOnce(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    const text = `replan: aiSdkModel "${this.id}": ${message}`;
    if (this.options.onWarning) this.options.onWarning(text);
    else console.warn(text);
  }
}
