import type { ContentBlock, ToolCallBlock } from '../messages/content-block.js';
import type { Message } from '../messages/message.js';
import { toolCallsOf } from '../messages/message.js';
import type {
  ChatModel,
  FinishReason,
  ModelCallAgent,
  ModelCallOptions,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
} from '../models/chat-model.js';
import type { Usage } from '../models/usage.js';
import { estimateTokens, requestChars } from '../observe/request-size.js';

/** One scripted answer: text, a message, a whole response, an error to throw, or a function of the request. */
export type ScriptedReply =
  | string
  | Message
  | ModelResponse
  | Error
  | ((request: ModelRequest, call: number) => ScriptedReply | Promise<ScriptedReply>);

export interface ScriptedModelOptions {
  readonly id?: string;
  /** A context window to claim (tokens), e.g. to test compaction's default `maxInputTokens`. */
  readonly contextWindow?: number;
  /** Answers in order, one per call. */
  readonly responses?: readonly ScriptedReply[];
  /** Answers every call after the scripted `responses` run out (or all calls, if none). */
  readonly respond?: (request: ModelRequest, call: number) => ScriptedReply | Promise<ScriptedReply>;
  /** Delay before each answer (honours the abort signal). */
  readonly latencyMs?: number | ((call: number) => number);
  /**
   * Usage reported with each answer that has none (default: 10 input, 5 output tokens).
   * `'measured'`: the request's size and the answer's, about 4 characters a token (what budgets
   * estimate from), the output capped at `settings.maxTokens` as a provider caps it.
   */
  readonly usage?: Usage | 'measured' | null;
  /** Characters per streamed text chunk (default 8). */
  readonly chunkSize?: number;
  /**
   * Characters per streamed tool-call arguments chunk (default: the whole JSON in one delta). The
   * first delta of a call carries its `id` and `name`, later ones only `index` and `argsDelta`.
   */
  readonly argsChunkSize?: number;
  /** Delay between two streamed chunks (text or tool-call arguments), honouring the abort signal (default 0). */
  readonly chunkDelayMs?: number;
}

/** A tool call to script: `callTools({ name: 'search', args: { q: 'x' } })`. */
export interface ScriptedToolCall {
  readonly name: string;
  readonly args?: Record<string, unknown>;
  readonly id?: string;
}

let nextCallId = 0;

/** An assistant message that calls tools (ids are generated when not given). */
export function callTools(...calls: readonly ScriptedToolCall[]): Message {
  return {
    role: 'assistant',
    content: calls.map((c): ToolCallBlock => ({ type: 'tool_call', id: c.id ?? `call_${++nextCallId}`, name: c.name, args: c.args ?? {} })),
  };
}

/** An assistant message with text (and optionally other blocks before it, such as reasoning). */
export function reply(text: string, ...before: readonly ContentBlock[]): Message {
  return { role: 'assistant', content: [...before, { type: 'text', text }] };
}

const isResponse = (r: object): r is ModelResponse => 'message' in r && 'finishReason' in r;

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A `ChatModel` that plays scripted answers: for tests, demos and benchmarks. Records every
 * request (`requests`), can add latency, and streams when asked (text in chunks, tool calls as
 * deltas, then the whole response).
 */
export class ScriptedModel implements ChatModel {
  readonly id: string;
  /** The context window it claims (`ScriptedModelOptions.contextWindow`); it never enforces one. */
  readonly contextWindow?: number;
  /**
   * Every request as it was sent: each a copy taken at the call (its message list included), so a
   * later turn's messages never show up in an earlier request.
   */
  readonly requests: ModelRequest[] = [];
  private readonly responses: readonly ScriptedReply[];
  private cursor = 0;

  constructor(private readonly options: ScriptedModelOptions = {}) {
    this.id = options.id ?? 'scripted';
    if (options.contextWindow !== undefined) this.contextWindow = options.contextWindow;
    this.responses = options.responses ?? [];
  }

  /** The calling agent of each call (`ModelCallOptions.agent`), in call order; `undefined` when none was passed. */
  readonly callers: (ModelCallAgent | undefined)[] = [];

  /** How many calls were made. */
  get calls(): number {
    return this.requests.length;
  }

  async generate(request: ModelRequest, opts: ModelCallOptions = {}): Promise<ModelResponse> {
    const call = this.requests.length;
    // The loop reuses and grows one message list across turns: keep what this call was sent.
    this.requests.push({ ...request, messages: [...request.messages] });
    this.callers.push(opts.agent);
    const latency = typeof this.options.latencyMs === 'function' ? this.options.latencyMs(call) : this.options.latencyMs;
    if (latency) await sleep(latency, opts.signal);
    else if (opts.signal?.aborted) throw opts.signal.reason;
    let scripted: ScriptedReply | undefined = this.cursor < this.responses.length ? this.responses[this.cursor++] : this.options.respond;
    if (scripted === undefined)
      throw new Error(`ScriptedModel "${this.id}": no response scripted for call #${call + 1}. Add one to responses or pass respond.`);
    while (typeof scripted === 'function') scripted = await scripted(request, call);
    if (scripted instanceof Error) throw scripted;
    return this.normalise(scripted, request);
  }

  async *stream(request: ModelRequest, opts: ModelCallOptions = {}): AsyncIterable<ModelStreamPart> {
    const response = await this.generate(request, opts);
    const size = this.options.chunkSize ?? 8;
    const delay = this.options.chunkDelayMs ?? 0;
    let chunks = 0;
    // Only with a delay: without one the stream yields exactly as before (no extra awaits).
    const pause = delay ? () => (chunks++ > 0 ? sleep(delay, opts.signal) : Promise.resolve()) : undefined;
    let index = 0;
    for (const block of response.message.content) {
      if (block.type === 'text')
        for (let i = 0; i < block.text.length; i += size) {
          if (pause) await pause();
          yield { type: 'text-delta', delta: block.text.slice(i, i + size) };
        }
      else if (block.type === 'reasoning' && block.reasoning) {
        if (pause) await pause();
        yield { type: 'reasoning-delta', delta: block.reasoning };
      } else if (block.type === 'tool_call') {
        const args = JSON.stringify(block.args);
        const argsSize = this.options.argsChunkSize ?? Math.max(args.length, 1);
        const callIndex = index++;
        for (let i = 0; i === 0 || i < args.length; i += argsSize) {
          if (pause) await pause();
          const argsDelta = args.slice(i, i + argsSize);
          yield i === 0
            ? { type: 'tool-call-delta', index: callIndex, id: block.id, name: block.name, argsDelta }
            : { type: 'tool-call-delta', index: callIndex, argsDelta };
        }
      }
    }
    if (pause) await pause();
    yield { type: 'finish', response };
  }

  private normalise(r: string | Message | ModelResponse, request: ModelRequest): ModelResponse {
    if (typeof r === 'string') r = reply(r);
    const given = this.options.usage;
    const usage =
      given === null ? undefined : given === 'measured' ? measuredUsage(request, r) : (given ?? { inputTokens: 10, outputTokens: 5 });
    if (isResponse(r)) return r.usage || !usage ? r : { ...r, usage };
    const finishReason: FinishReason = toolCallsOf(r).length ? 'tool_calls' : 'stop';
    return usage ? { message: r, finishReason, usage } : { message: r, finishReason };
  }
}

/** `usage: 'measured'`: tokens estimated from the request and the answer, the output capped at `settings.maxTokens`. */
function measuredUsage(request: ModelRequest, answer: Message | ModelResponse): Usage {
  const message = isResponse(answer) ? answer.message : answer;
  const output = estimateTokens(requestChars({ messages: [message] }));
  const cap = request.settings?.maxTokens;
  return { inputTokens: estimateTokens(requestChars(request)), outputTokens: cap === undefined ? output : Math.min(cap, output) };
}
