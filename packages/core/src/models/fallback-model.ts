import { ConfigurationError } from '../errors/replan-error.js';
import { FallbackExhaustedError, type FallbackAttempt } from '../errors/fallback-error.js';
import { isProviderBound, withoutForeignReasoning } from './foreign-reasoning.js';
import type { AnsweringModel, ChatModel, ModelCallOptions, ModelRequest, ModelResponse, ModelStreamPart } from './chat-model.js';
import { type ModelErrorKind, modelErrorOf } from '../errors/model-error.js';
import { modelErrorKindOf } from './model-error-kind-of.js';

/** A model failed and the next one is about to be asked (`FallbackModelOptions.onFallback`). */
export interface FallbackInfo {
  /** The `ChatModel.id` of the model that failed. */
  readonly from: string;
  /** The `ChatModel.id` of the model asked next. */
  readonly to: string;
  /** The failure's `ModelErrorKind`; `undefined` when only a `retryOn` function allowed an error of no kind. */
  readonly kind: ModelErrorKind | undefined;
  readonly error: unknown;
}

export interface FallbackModelOptions {
  /**
   * Which failures the next model answers: a list of `ModelError` kinds (default: `rate_limit`,
   * `overloaded`, `server`, `timeout`, `connection`, `context_length`), or a function of the error
   * and its kind (`undefined` for an error that is no model failure) that returns true to fall back.
   * A context overflow only ever goes to a model with a larger `contextWindow`. An abort of the
   * caller's signal is never handed on.
   */
  readonly retryOn?: readonly ModelErrorKind[] | ((error: unknown, kind: ModelErrorKind | undefined) => boolean);
  /** This model's id for budgets and logs before a call is answered (default: the primary's id). */
  readonly id?: string;
  /** Told each time a failure is handed to the next model (called synchronously; must not throw). */
  readonly onFallback?: (info: FallbackInfo) => void;
}

/** A `ChatModel` that hands a failed request to the next of its models. */
export interface FallbackChatModel extends ChatModel {
  /** The models in the order they are asked: the primary first. */
  readonly models: readonly ChatModel[];
}

/**
 * A `ChatModel` that asks `primary` and, when it fails with a `ModelError` of kind `rate_limit`
 * (429, quota), `overloaded` (503, 529), `server` (another 5xx), `timeout` or `connection`, asks the
 * next model — never on an invalid request, an auth error, a content filter or an abort. A
 * `context_length` failure goes only to a later model whose `contextWindow` is larger than the
 * failing one's. The kind is read from the error (`modelErrorKindOf`), never from its class name.
 *
 * The answering model is named in the response's `model`, so the stored event's `meta.model`,
 * budgets and observers' model-call ends show who answered, and its signed or encrypted reasoning
 * blocks are marked with its id (`ReasoningBlock.model`). Before calling a model, reasoning bound
 * to another provider or made by another model (signatures, encrypted or redacted reasoning,
 * Gemini tool-call signatures) is downgraded to plain reasoning text — dropped when it has none.
 * A model's `reasoningProviders` say which provider tags it takes; a primary that does not say
 * gets everything but other models' marked blocks, a fallback that does not say only its own.
 *
 * Streaming falls back only while the failing model has yielded nothing: once a delta has been
 * passed on, a failure is thrown as it is (two models' text are never mixed in one answer); the
 * agent's model call then fails and the run stays resumable.
 *
 * The models' own retries come first: give the primary `maxRetries: 0` to fall back at once.
 * When every model tried failed, `FallbackExhaustedError` lists them; a failure no other model may
 * fix is thrown unchanged, and so is the error when no other model could be asked.
 */
export function fallbackModel(models: readonly [ChatModel, ...ChatModel[]], options: FallbackModelOptions = {}): FallbackChatModel {
  return new FallbackModel(models, options);
}

class FallbackModel implements FallbackChatModel {
  readonly id: string;
  readonly provider?: string;
  readonly contextWindow?: number;
  readonly models: readonly ChatModel[];

  constructor(
    models: readonly ChatModel[],
    private readonly options: FallbackModelOptions,
  ) {
    const primary = models[0];
    if (!primary) throw new ConfigurationError('fallbackModel needs at least one model: fallbackModel([primary, ...fallbacks]).');
    this.models = [...models];
    this.id = options.id ?? primary.id;
    if (primary.provider !== undefined) this.provider = primary.provider;
    // The conversation is sized for the primary; a larger window is only reached on overflow.
    if (primary.contextWindow !== undefined) this.contextWindow = primary.contextWindow;
  }

  async generate(req: ModelRequest, opts?: ModelCallOptions): Promise<ModelResponse> {
    const tries = new Tries(this.models, this.options);
    for (let model = tries.next(); model; model = tries.next()) {
      try {
        return answeredBy(await model.generate(requestFor(model, this.models, req), opts), model);
      } catch (error) {
        tries.failed(model, error, opts?.signal);
      }
    }
    throw tries.exhausted();
  }

  async *stream(req: ModelRequest, opts?: ModelCallOptions): AsyncGenerator<ModelStreamPart, void, undefined> {
    const tries = new Tries(this.models, this.options);
    for (let model = tries.next(); model; model = tries.next()) {
      let parts: AsyncIterator<ModelStreamPart> | undefined;
      let yielded = false;
      let ended = false;
      try {
        for (;;) {
          let next: IteratorResult<ModelStreamPart>;
          try {
            parts ??= model.stream(requestFor(model, this.models, req), opts)[Symbol.asyncIterator]();
            next = await parts.next();
          } catch (error) {
            ended = true; // a stream that threw is over
            if (yielded) throw error;
            tries.failed(model, error, opts?.signal);
            break;
          }
          if (next.done) {
            ended = true;
            return;
          }
          const part = next.value;
          yielded = true;
          yield part.type === 'finish' ? { type: 'finish', response: answeredBy(part.response, model) } : part;
        }
      } finally {
        // Our caller stopped early: close the model's stream.
        if (!ended) await parts?.return?.(undefined).catch(() => undefined);
      }
    }
    throw tries.exhausted();
  }
}

/** What `fallbackModel` hands on by default: failures another model (or a larger one) may answer. */
const FALLBACK_KINDS: readonly ModelErrorKind[] = ['rate_limit', 'overloaded', 'server', 'timeout', 'connection', 'context_length'];

/** The order of a request's attempts and the failures so far. */
class Tries {
  private index = 0;
  private readonly attempts: FallbackAttempt[] = [];
  private last: { readonly model: ChatModel; readonly error: unknown; readonly kind: ModelErrorKind | undefined } | undefined;
  /** After a context overflow: the window a later model must exceed. */
  private mustExceed: number | undefined;

  constructor(
    private readonly models: readonly ChatModel[],
    private readonly options: FallbackModelOptions,
  ) {}

  /** The next model to ask, or `undefined` when none is left. */
  next(): ChatModel | undefined {
    while (this.index < this.models.length) {
      const model = this.models[this.index++] as ChatModel;
      const window = this.mustExceed;
      if (window !== undefined && !(model.contextWindow !== undefined && model.contextWindow > window)) continue;
      if (this.last) this.options.onFallback?.({ from: this.last.model.id, to: model.id, kind: this.last.kind, error: this.last.error });
      return model;
    }
    return undefined;
  }

  /** Records a failure another model may answer; throws `error` itself when none may. */
  failed(model: ChatModel, error: unknown, signal: AbortSignal | undefined): void {
    if (signal?.aborted) throw error;
    const kind = modelErrorKindOf(error);
    const retryOn = this.options.retryOn ?? FALLBACK_KINDS;
    const allowed = typeof retryOn === 'function' ? retryOn(error, kind) : kind !== undefined && retryOn.includes(kind);
    if (!allowed) throw error;
    this.attempts.push({ model: model.id, error });
    this.last = { model, error, kind };
    if (kind === 'context_length') {
      const window = contextWindowOf(error) ?? model.contextWindow;
      // An unknown window cannot be exceeded knowingly: no later model is asked.
      if (window === undefined) this.index = this.models.length;
      else this.mustExceed = Math.max(this.mustExceed ?? 0, window);
    }
  }

  /** The error to throw once no model is left. */
  exhausted(): unknown {
    if (this.attempts.length === 1) return this.attempts[0]?.error;
    return new FallbackExhaustedError(this.attempts);
  }
}

function contextWindowOf(error: unknown): number | undefined {
  return modelErrorOf(error)?.contextWindow;
}

/** The request as `model` may receive it: other providers' and other models' bound reasoning downgraded (see `fallbackModel`). */
function requestFor(model: ChatModel, models: readonly ChatModel[], req: ModelRequest): ModelRequest {
  const accepts = model.reasoningProviders;
  // A model that does not say what it takes gets, as a fallback, only the bound reasoning it made itself.
  const messages = withoutForeignReasoning(req.messages, { id: model.id, accepts, ownOnly: accepts === undefined && model !== models[0] });
  return messages === req.messages ? req : { ...req, messages };
}

/** The response named after the model that answered, its bound reasoning marked as that model's. */
function answeredBy(response: ModelResponse, model: ChatModel): ModelResponse {
  if (response.model) return response; // a nested fallback already named its answering model
  const meta: AnsweringModel = model.provider !== undefined ? { id: model.id, provider: model.provider } : { id: model.id };
  const content = response.message.content;
  const marked = content.some((b) => b.type === 'reasoning' && b.model === undefined && isProviderBound(b))
    ? content.map((b) => (b.type === 'reasoning' && b.model === undefined && isProviderBound(b) ? { ...b, model: model.id } : b))
    : content;
  return { ...response, model: meta, ...(marked !== content ? { message: { ...response.message, content: marked } } : {}) };
}
