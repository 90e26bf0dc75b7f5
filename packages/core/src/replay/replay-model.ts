import { replayCallerUnknown, replayExhausted, replayMismatch } from '../errors/replay-errors.js';
import type { ChatModel, ModelCallOptions, ModelRequest, ModelResponse, ModelStreamPart } from '../models/chat-model.js';
import { type RecordedResponse, type RecordedSession, recordedResponses } from './recorded-session.js';
import { describeRequest, newRequestChain, type RequestChain, requestDifferences } from '../models/request-fingerprint.js';
import { responseParts } from './response-stream.js';
import { RecordedOrder } from './recorded-order.js';

export interface ReplayModelOptions {
  /**
   * Compare each request's fingerprint with the recorded one and throw a `ReplayError` of kind `mismatch` on
   * the first difference (default `true`). With `false` (and no `fallback`) the recorded answers
   * are served whatever the agents ask; the first difference is kept in `divergence`.
   */
  readonly strict?: boolean;
  /**
   * A live model to continue with: an agent path replays until its first difference (or past the
   * end of its recording), then that path's calls — that one and all later ones — go to
   * `fallback`. Other paths keep replaying while their requests match the recording: a request
   * identical to the recorded one gets the recorded answer, which is what the model answered to
   * it; each path goes live at its own first difference.
   */
  readonly fallback?: ChatModel;
  /** The model id (default `'replay'`). */
  readonly id?: string;
  /**
   * Agent paths are answered in the recorded order (so parallel steps finish in the order they
   * did, and a replanner listing their results sees the same list, whatever order the steps start
   * in now): a call waits while another path has an earlier unserved recorded answer — at most
   * this long, for a path that no longer calls (default 1,000 ms; 0 turns the ordering off).
   */
  readonly orderWaitMs?: number;
}

/** Where a replay first differed from its recording. */
export interface ReplayDivergence {
  readonly path: string;
  readonly callIndex: number;
  readonly differences: readonly string[];
}

/** Per agent path: the state of its replay. */
interface PathReplay {
  readonly recorded: readonly RecordedResponse[];
  served: number;
  /** Calls made so far on this path (served ones and live ones). */
  calls: number;
  live: boolean;
  /** A call waited for this path's next call in vain: nobody waits for it again. */
  abandoned: boolean;
  readonly chain: RequestChain;
}

/**
 * A `ChatModel` that replays a stored session: give it to every agent (planner, executor,
 * replanner: one model for every role) and each agent path gets its own recorded answers, in
 * order — so parallel graph steps replay deterministically whatever order they start in. The
 * calling agent comes from `ModelCallOptions.agent`, which core's model-call primitive passes.
 *
 * Strict (the default): each request must have the recorded fingerprint, else
 * A `ReplayError` of kind `mismatch` names the path, the call and what differs; a call past the recording
 * throws one of kind `exhausted`. With `fallback`, a path continues live from its first difference.
 * Both errors stop the run (a graph step does not turn them into a step failure).
 *
 * ```ts
 * const session = await store.get({ appName, userId, id });
 * const model = ReplayModel.fromSession(session);
 * const agent = createPlanExecuteAgent({
 *   planner: createPlanner({ model }),
 *   executor: createExecutor({ model, tools: replayTools(session, tools) }),
 *   replanner: createReplanner({ model }),
 * });
 * const result = await new Runner({ agent, appName }).run({ userId, input }).result();
 * ```
 */
export class ReplayModel implements ChatModel {
  readonly id: string;
  private readonly paths = new Map<string, PathReplay>();
  private readonly strict: boolean;
  private readonly fallback: ChatModel | undefined;
  private firstDivergence: ReplayDivergence | undefined;
  private readonly order: RecordedOrder | undefined;
  private halted = false;

  private constructor(recorded: Map<string, RecordedResponse[]>, options: ReplayModelOptions) {
    this.id = options.id ?? 'replay';
    this.strict = options.strict ?? true;
    this.fallback = options.fallback;
    for (const [path, responses] of recorded) this.paths.set(path, newPath(responses));
    const wait = options.orderWaitMs ?? 1000;
    this.order =
      wait > 0
        ? new RecordedOrder(
            () => this.nextOrders(),
            wait,
            (order) => {
              for (const p of this.paths.values()) if ((p.recorded[p.served]?.order ?? order) < order) p.abandoned = true;
            },
          )
        : undefined;
  }

  /** The recorded position of each replaying path's next answer. */
  private *nextOrders(): Iterable<number> {
    if (this.halted) return; // a replay error stops the run: nobody waits for its other paths
    for (const p of this.paths.values())
      if (!p.live && !p.abandoned && p.served < p.recorded.length) yield (p.recorded[p.served] as RecordedResponse).order;
  }

  /** A replay of `session`'s recorded model answers (every event carrying `meta.request`). */
  static fromSession(session: RecordedSession, options: ReplayModelOptions = {}): ReplayModel {
    return new ReplayModel(recordedResponses(session), options);
  }

  /** Per agent path: how many recorded responses were served and how many there are. */
  get progress(): ReadonlyMap<string, { served: number; recorded: number }> {
    return new Map([...this.paths].map(([path, p]) => [path, { served: p.served, recorded: p.recorded.length }]));
  }

  /** The first difference seen (with `strict: false` or a `fallback`), if any. */
  get divergence(): ReplayDivergence | undefined {
    return this.firstDivergence;
  }

  /**
   * How many calls waited for another agent path's earlier recorded answer (to keep the recorded
   * order). A replay whose agents call in the recorded order never waits; each wait lasts until
   * that answer is served, or at most `orderWaitMs`.
   */
  get orderWaits(): number {
    return this.order?.waits ?? 0;
  }

  /** True when every recorded response was served (a complete replay). */
  get finished(): boolean {
    return [...this.paths.values()].every((p) => p.served === p.recorded.length);
  }

  async generate(request: ModelRequest, opts: ModelCallOptions = {}): Promise<ModelResponse> {
    const answer = await this.answerInTurn(request, opts);
    return answer.live ? answer.live.generate(request, opts) : answer.response;
  }

  async *stream(request: ModelRequest, opts: ModelCallOptions = {}): AsyncIterable<ModelStreamPart> {
    const answer = await this.answerInTurn(request, opts);
    if (answer.live) yield* answer.live.stream(request, opts);
    else yield* responseParts(answer.response);
  }

  /** `answer`, once the recorded order lets this path's next answer go. */
  private async answerInTurn(
    request: ModelRequest,
    opts: ModelCallOptions,
  ): Promise<{ response: ModelResponse; live?: never } | { live: ChatModel }> {
    if (opts.signal?.aborted) throw opts.signal.reason;
    const path = opts.agent?.path;
    const next = path === undefined ? undefined : this.paths.get(path);
    const recorded = next && !next.live ? next.recorded[next.served] : undefined;
    if (recorded && this.order) await this.order.turn(recorded.order, opts.signal);
    try {
      return this.answer(request, opts);
    } catch (error) {
      this.halted = true;
      throw error;
    } finally {
      this.order?.served();
    }
  }

  /** The recorded answer for this call, or the live model to ask; throws where strict replay must stop. */
  private answer(request: ModelRequest, opts: ModelCallOptions): { response: ModelResponse; live?: never } | { live: ChatModel } {
    const path = opts.agent?.path;
    if (path === undefined) throw replayCallerUnknown(this.id);
    let replay = this.paths.get(path);
    if (!replay) {
      replay = newPath([]);
      this.paths.set(path, replay);
    }
    const callIndex = replay.calls++;
    if (replay.live) return { live: this.fallback as ChatModel };
    const recorded = replay.recorded[replay.served];
    if (!recorded) {
      if (!this.fallback) throw replayExhausted(path, callIndex, replay.recorded.length);
      return this.goLive(replay, { path, callIndex, differences: ['past the end of the recording'] });
    }
    const now = describeRequest(request, replay.chain);
    if (now.fingerprint !== recorded.request.fingerprint) {
      const divergence = { path, callIndex, differences: requestDifferences(recorded.request, now, replay.chain.chain, request) };
      if (this.fallback) return this.goLive(replay, divergence);
      if (this.strict) throw replayMismatch(path, callIndex, divergence.differences);
      this.firstDivergence ??= divergence;
    }
    replay.served++;
    return { response: recorded.response };
  }

  private goLive(replay: PathReplay, divergence: ReplayDivergence): { live: ChatModel } {
    replay.live = true;
    this.firstDivergence ??= divergence;
    return { live: this.fallback as ChatModel };
  }
}

const newPath = (recorded: readonly RecordedResponse[]): PathReplay => ({
  recorded,
  served: 0,
  calls: 0,
  live: false,
  abandoned: false,
  chain: newRequestChain(),
});
