import type { ToolCallBlock } from '../messages/content-block.js';
import type { ChatModel, ModelRequest, ModelResponse } from '../models/chat-model.js';
import type { ObserverHub } from './observer-hub.js';
import type { CompactionRecord } from '../events/agent-event.js';
import type { Usage } from '../models/usage.js';
import type {
  AgentScope,
  CompactionEndInfo,
  CompactionStartInfo,
  ModelCallEndInfo,
  ModelCallStartInfo,
  RequestSize,
  ToolCallEndInfo,
  ToolCallStartInfo,
} from './run-observer.js';
import { requestChars, estimateTokens } from './request-size.js';

type RunLabels = Pick<AgentScope, 'appName' | 'userId' | 'sessionId' | 'invocationId'>;

/**
 * What observing reads of an agent's invocation context: who runs, where, under which work label. Structural
 * (an `InvocationContext` is one) so that observing sits below the invocation it reports on.
 */
export interface ObservedAgent {
  readonly agent: { readonly name: string; readonly operation?: 'invoke_agent' | 'plan' | undefined };
  readonly path: string;
  readonly branch: string | undefined;
  readonly label?: { readonly id: string } | undefined;
}

/**
 * One run's link to the runner's observers: numbers agent runs, model and tool calls, and finds
 * which agent run a call belongs to (by path: only one run of an agent is active at a time on a
 * path — graph steps and parallel branches have paths of their own). Exists only when observers
 * are registered, so agents check `ctx.services.observation` once and pay nothing otherwise.
 */
export class RunObservation {
  private next = 0;
  private readonly active = new Map<string, AgentScope[]>();

  constructor(
    readonly hub: ObserverHub,
    readonly labels: RunLabels,
    /** Prices a call (the runner's price table); 0 when unpriced. */
    private readonly price: (model: string, usage: ModelResponse['usage']) => number,
  ) {}

  private id(prefix: string): string {
    return `${prefix}${++this.next}`;
  }

  /** Reports an agent's run starting; returns the scope its calls and `agentEnd` report with. */
  agentStart(ctx: ObservedAgent): AgentScope {
    const parent = this.nearestActiveAncestor(ctx.path);
    const scope: AgentScope = {
      ...this.labels,
      time: Date.now(),
      agentRunId: this.id('agent-'),
      agent: ctx.agent.name,
      path: ctx.path,
      branch: ctx.branch,
      label: ctx.label?.id,
    };
    const stack = this.active.get(ctx.path);
    if (stack) stack.push(scope);
    else this.active.set(ctx.path, [scope]);
    this.hub.notify({
      ...scope,
      kind: 'agent-start',
      operation: ctx.agent.operation ?? 'invoke_agent',
      ...(parent ? { parentAgentRunId: parent.agentRunId } : {}),
    });
    return scope;
  }

  /** The innermost running agent above `path` (a step run under a planner's path finds the planner). */
  private nearestActiveAncestor(path: string): AgentScope | undefined {
    for (let end = path.lastIndexOf('/'); end > 0; end = path.lastIndexOf('/', end - 1)) {
      const scope = this.active.get(path.slice(0, end))?.at(-1);
      if (scope) return scope;
    }
    return undefined;
  }

  agentEnd(scope: AgentScope, error?: unknown): void {
    const stack = this.active.get(scope.path);
    const i = stack?.lastIndexOf(scope) ?? -1;
    if (stack && i >= 0) stack.splice(i, 1);
    if (stack && !stack.length) this.active.delete(scope.path);
    const time = Date.now();
    this.hub.notify({
      ...scope,
      kind: 'agent-end',
      time,
      durationMs: time - scope.time,
      ...(error !== undefined ? { error: asError(error) } : {}),
    });
  }

  /** The agent run a call made in `ctx` belongs to. */
  scopeOf(ctx: ObservedAgent): AgentScope {
    const scope = this.active.get(ctx.path)?.at(-1);
    if (scope) return scope;
    // An agent run by hand (not through runAgent): report it under its path anyway.
    return {
      ...this.labels,
      time: Date.now(),
      agentRunId: `${ctx.path}#unobserved`,
      agent: ctx.agent.name,
      path: ctx.path,
      branch: ctx.branch,
      label: ctx.label?.id,
    };
  }

  /**
   * Reports a model call starting; call the returned function with its response, or with
   * `undefined` and the error. (Arguments, not an outcome object: this runs on every model call.)
   */
  modelCall(ctx: ObservedAgent, model: ChatModel, request: ModelRequest): (response: ModelResponse | undefined, error?: unknown) => void {
    const s = this.scopeOf(ctx);
    const callId = this.id('model-call-');
    let size: RequestSize | undefined;
    const requestSize = () => (size ??= measure(request));
    const started = Date.now();
    // Fixed-shape literals (no spreads): this runs on every model call.
    this.hub.notify<ModelCallStartInfo>({
      kind: 'model-call-start',
      appName: s.appName,
      userId: s.userId,
      sessionId: s.sessionId,
      invocationId: s.invocationId,
      time: started,
      agentRunId: s.agentRunId,
      agent: s.agent,
      path: s.path,
      branch: s.branch,
      label: s.label,
      callId,
      model: model.id,
      provider: model.provider,
      request,
      requestSize,
    });
    return (response, error) => {
      const time = Date.now();
      this.hub.notify<ModelCallEndInfo>({
        kind: 'model-call-end',
        appName: s.appName,
        userId: s.userId,
        sessionId: s.sessionId,
        invocationId: s.invocationId,
        time,
        agentRunId: s.agentRunId,
        agent: s.agent,
        path: s.path,
        branch: s.branch,
        label: s.label,
        callId,
        // The model that answered, when the called model handed the request on (a fallback).
        model: response?.model?.id ?? model.id,
        provider: response?.model ? response.model.provider : model.provider,
        request,
        requestSize,
        latencyMs: time - started,
        cost: response ? this.price(response.model?.id ?? model.id, response.usage) : 0,
        response,
        usage: response?.usage,
        finishReason: response?.finishReason,
        error: error === undefined ? undefined : asError(error),
      });
    };
  }

  /**
   * Reports a tool call starting; call the returned function with how it ended: its output and
   * whether that is an error result, else the error it threw, or `interrupted` when it asked a question.
   * `compensates`: the id of the call a compensation undoes.
   */
  toolCall(
    ctx: ObservedAgent,
    call: ToolCallBlock,
    compensates?: string,
  ): (output: unknown, isError: boolean, error?: unknown, interrupted?: boolean) => void {
    const s = this.scopeOf(ctx);
    const started = Date.now();
    this.hub.notify<ToolCallStartInfo>({
      kind: 'tool-call-start',
      appName: s.appName,
      userId: s.userId,
      sessionId: s.sessionId,
      invocationId: s.invocationId,
      time: started,
      agentRunId: s.agentRunId,
      agent: s.agent,
      path: s.path,
      branch: s.branch,
      label: s.label,
      toolName: call.name,
      toolCallId: call.id,
      args: call.args,
      compensates,
    });
    return (output, isError, error, interrupted) => {
      const time = Date.now();
      this.hub.notify<ToolCallEndInfo>({
        kind: 'tool-call-end',
        appName: s.appName,
        userId: s.userId,
        sessionId: s.sessionId,
        invocationId: s.invocationId,
        time,
        agentRunId: s.agentRunId,
        agent: s.agent,
        path: s.path,
        branch: s.branch,
        label: s.label,
        toolName: call.name,
        toolCallId: call.id,
        args: call.args,
        compensates,
        latencyMs: time - started,
        isError,
        output,
        error: error === undefined ? undefined : asError(error),
        interrupted,
      });
    };
  }

  /**
   * Reports a compaction starting (before its summarizer call); call the returned function with
   * the stored record and the summarizer's usage, or with `undefined` and the error.
   */
  compaction(
    ctx: ObservedAgent,
    model: ChatModel,
    tokensBefore: number,
  ): (record: CompactionRecord | undefined, usage: Usage | undefined, error?: unknown) => void {
    const s = this.scopeOf(ctx);
    const scope = {
      appName: s.appName,
      userId: s.userId,
      sessionId: s.sessionId,
      invocationId: s.invocationId,
      agentRunId: s.agentRunId,
      agent: s.agent,
      path: s.path,
      branch: s.branch,
      label: s.label,
      compactionId: this.id('compaction-'),
      model: model.id,
      tokensBefore,
    };
    const started = Date.now();
    this.hub.notify<CompactionStartInfo>({ ...scope, kind: 'compaction-start', time: started });
    return (record, usage, error) => {
      const time = Date.now();
      this.hub.notify<CompactionEndInfo>({
        ...scope,
        kind: 'compaction-end',
        time,
        latencyMs: time - started,
        tokensAfter: record?.tokensAfter,
        summary: record?.summary,
        usage,
        cost: usage ? this.price(model.id, usage) : 0,
        ...(error !== undefined ? { error: asError(error) } : {}),
      });
    };
  }
}

const measure = (request: ModelRequest): RequestSize => {
  const chars = requestChars(request);
  return { chars, estimatedInputTokens: estimateTokens(chars) };
};

const asError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));
