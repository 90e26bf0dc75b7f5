import type { AgentEvent, CompactionRecord } from '../events/agent-event.js';
import { CompactionError } from '../errors/compaction-error.js';
import { ModelCallError } from '../errors/run-errors.js';
import { streamModelCall } from '../invocation/model-call.js';
import type { MiddlewareContext } from '../middleware/middleware.js';
import { type Message, messageText } from '../messages/message.js';
import type { ModelRequest, ModelResponse } from '../models/chat-model.js';
import type { Usage } from '../models/usage.js';
import type { ResolvedCompaction } from './compaction-options.js';
import { DEFAULT_COMPACTION_INSTRUCTION, summarizerRequest, summaryMessage } from './summary-prompt.js';
import { TokenEstimator } from './token-estimate.js';

/** Builds the model request around the messages it is given (the agent's tools, settings, …). */
export type RequestBuilder = (context: readonly Message[]) => ModelRequest;

/**
 * The compaction state of one run of a `ReActAgent`: which older messages of its turn a summary
 * replaces, and when to write a new one.
 *
 * `messages` is the request's messages as the middleware before compaction left them (offloaded
 * tool results as previews), uncompacted and growing: the verbatim head (the instruction and
 * everything before this turn — for an executor the objective, plan and task) followed by the
 * turn's own messages. The model sees the head, the latest summary (quoted), then the turn's messages after
 * the summarised ones. Cuts fall only before an assistant or user message, never between a tool
 * call and its results. The state is rebuilt from the stored `actions.compaction` events, so a
 * resumed run shows the model the same context without calling the summarizer again.
 */
export class TurnCompactor {
  private readonly estimator = new TokenEstimator();
  private readonly head: number;
  /** `messages[head, cut)` are covered by `summary`. */
  private cut: number;
  private summary: string | undefined;
  private summaryShown: Message | undefined;

  constructor(
    private readonly agent: string,
    private readonly options: ResolvedCompaction,
    private messages: readonly Message[],
    own: readonly AgentEvent[],
    /** The compaction events stored before (`ctx.recorded('compaction')`): the latest one is restored. */
    recorded: readonly AgentEvent[],
  ) {
    const ownMessages = new Set<Message>();
    for (const e of own) if (e.message && !e.partial) ownMessages.add(e.message);
    const first = messages.findIndex((m) => ownMessages.has(m));
    this.head = first < 0 ? messages.length : first;
    this.cut = this.head;
    // A log written before compaction was middleware has no meta.middleware on its compaction events.
    const records = recorded.length ? recorded : own.filter((e) => e.actions?.compaction);
    const record = records[records.length - 1]?.actions?.compaction;
    if (record) this.restore(record, own);
  }

  /** The next request's messages: the same head and turn, grown by the messages since the last call. */
  update(messages: readonly Message[]): void {
    this.messages = messages;
  }

  /** The context the model sees now: the head, the summary, the messages after it. No copy while nothing is summarised. */
  context(): readonly Message[] {
    if (this.summary === undefined) return this.messages;
    this.summaryShown ??= summaryMessage(this.summary);
    return [...this.messages.slice(0, this.head), this.summaryShown, ...this.messages.slice(this.cut)];
  }

  /** Learns the tokenizer's ratio from a call's reported usage. */
  calibrate(request: ModelRequest, usage: Usage | undefined): void {
    this.estimator.calibrate(request, usage);
  }

  /**
   * The request for the next model call: compacted first when its estimate passes the trigger (or
   * always when `force`, after a `context_length` `ModelError`). Yields the compaction event it stores.
   * Returns `undefined` when `force` found nothing left to summarise.
   */
  async prepare(ctx: MiddlewareContext, build: RequestBuilder, force = false): Promise<ModelRequest | undefined> {
    const request = build(this.context());
    const size = this.estimator.estimate(request);
    if (!force && size <= this.options.trigger) return request;
    this.assertVerbatimFits(request);
    let cut = this.nextCut(this.options.keepRecentTokens);
    if (cut === undefined) {
      if (force) return undefined;
      if (size <= this.options.maxInputTokens) return request; // over the trigger, but nothing new to summarise yet
      throw this.tooLarge(size, 'even with all of this turn summarised');
    }
    let after = (await this.compact(ctx, cut, size, build)).tokensAfter;
    if (after > this.options.maxInputTokens) {
      // The recent part kept verbatim is itself too large: summarise all of the turn, once.
      cut = this.nextCut(0);
      if (cut === undefined) throw this.tooLarge(after, 'even with all of this turn summarised');
      after = (await this.compact(ctx, cut, after, build)).tokensAfter;
      if (after > this.options.maxInputTokens) throw this.tooLarge(after, 'even with all of this turn summarised');
    }
    return build(this.context());
  }

  private async compact(ctx: MiddlewareContext, cut: number, before: number, build: RequestBuilder): Promise<CompactionRecord> {
    const invocation = ctx.invocation;
    const { model, instruction } = this.options;
    const request = summarizerRequest(instruction ?? DEFAULT_COMPACTION_INSTRUCTION, this.summary, this.messages.slice(this.cut, cut));
    const observed = invocation.services.observation?.compaction(invocation, model, before);
    let response: ModelResponse;
    try {
      const call = streamModelCall(invocation, model, request);
      let next = await call.next();
      while (!next.done) next = await call.next(); // deltas of a summary are not shown
      response = next.value;
    } catch (error) {
      if (!(error instanceof ModelCallError)) {
        observed?.(undefined, undefined, error);
        throw error; // an abort or a budget stays itself
      }
      const failure = new CompactionError(
        this.agent,
        'summarizer-failed',
        `the summarizer (model "${model.id}") failed: ${error.message}. ` +
          'Every tool call and result so far is stored; resume the session once the summarizer works.',
        { cause: error },
      );
      observed?.(undefined, undefined, failure);
      throw failure;
    }
    const summary = messageText(response.message).trim();
    if (!summary) {
      const failure = new CompactionError(
        this.agent,
        'empty-summary',
        `the summarizer (model "${model.id}") returned no text. ` +
          'Every tool call and result so far is stored; resume the session, or give compaction another model.',
      );
      observed?.(undefined, response.usage, failure);
      throw failure;
    }
    const through = throughEventId(invocation.ownEvents(), this.messages, cut);
    this.summary = summary;
    this.summaryShown = undefined;
    this.cut = cut;
    const tokensAfter = this.estimator.estimate(build(this.context()));
    const record: CompactionRecord = { through, summary, tokensBefore: before, tokensAfter };
    ctx.record({
      actions: { compaction: record },
      ...(response.usage ? { usage: response.usage } : {}),
      meta: { kind: 'compaction' },
    });
    observed?.(record, response.usage);
    return record;
  }

  /**
   * The first cut after the current one that keeps at most `keep` tokens of the turn verbatim, or
   * `undefined` when nothing new is left to summarise. A cut never lands on a tool result.
   */
  private nextCut(keep: number): number | undefined {
    const messages = this.messages;
    if (messages.length <= this.cut) return undefined;
    let best = messages.length;
    let kept = 0;
    for (let i = messages.length - 1; i > this.cut; i--) {
      kept += this.estimator.message(messages[i] as Message);
      if (this.estimator.calibrated(kept) > keep) break;
      if ((messages[i] as Message).role !== 'tool') best = i;
    }
    return best;
  }

  /** Fails when what always stays verbatim (instruction, tools, head) cannot fit, so compaction never loops. */
  private assertVerbatimFits(request: ModelRequest): void {
    const turn = this.estimator.messages(this.context().slice(this.head));
    const verbatim = this.estimator.calibrated(this.estimator.raw(request) - turn);
    if (verbatim >= this.options.maxInputTokens)
      throw new CompactionError(
        this.agent,
        'verbatim-too-large',
        `the part that always stays verbatim (instruction, tools, and the input before this turn, such as a step's task, objective and plan) ` +
          `is about ${verbatim} tokens, not below maxInputTokens (${this.options.maxInputTokens}). Raise maxInputTokens, use a model with a larger window, or shorten the instruction or input.`,
      );
  }

  private tooLarge(size: number, when: string): CompactionError {
    return new CompactionError(
      this.agent,
      'verbatim-too-large',
      `the request is about ${size} tokens ${when}, above maxInputTokens (${this.options.maxInputTokens}). ` +
        'Raise maxInputTokens, shorten the instruction or input, or give the summarizer an instruction that writes shorter summaries.',
    );
  }

  private restore(record: CompactionRecord, own: readonly AgentEvent[]): void {
    const through = own.find((e) => e.id === record.through);
    const index = through?.message ? indexOfMessage(this.messages, through.message) : -1;
    if (index < this.head) return; // not in this context (cannot happen for a log this agent wrote)
    let cut = index + 1;
    while (cut < this.messages.length && (this.messages[cut] as Message).role === 'tool') cut++; // placeholder results of that turn
    this.cut = cut;
    this.summary = record.summary;
  }
}

/** A tool message's first result's call id: an offloaded preview is a copy of its message, with the same ids. */
const firstResultId = (message: Message): string | undefined => {
  const block = message.role === 'tool' ? message.content[0] : undefined;
  return block?.type === 'tool_result' ? block.toolCallId : undefined;
};

/** Where `message` (or its preview, for a tool message) is in `messages`; -1 when absent. */
function indexOfMessage(messages: readonly Message[], message: Message): number {
  const index = messages.indexOf(message);
  const id = index < 0 ? firstResultId(message) : undefined;
  return id === undefined ? index : messages.findIndex((m) => firstResultId(m) === id);
}

/** The id of the last stored event whose message is before `cut` (placeholder results have none). */
function throughEventId(own: readonly AgentEvent[], messages: readonly Message[], cut: number): string {
  const ids = new Map<Message | string, string>();
  for (const e of own)
    if (e.message && !e.partial) {
      ids.set(e.message, e.id);
      const resultId = firstResultId(e.message);
      if (resultId !== undefined) ids.set(resultId, e.id);
    }
  for (let i = cut - 1; i >= 0; i--) {
    const message = messages[i] as Message;
    const id = ids.get(message) ?? ids.get(firstResultId(message) ?? message);
    if (id !== undefined) return id;
  }
  throw new Error('compaction found no stored event for the messages it summarised'); // the cut is always past an own message
}
