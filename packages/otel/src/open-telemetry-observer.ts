import {
  context,
  ROOT_CONTEXT,
  SpanKind,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import type { LifecycleInfo, RunObserver } from '@replan/core';
import { Attr, UNKNOWN_PROVIDER } from './attributes.js';
import { inputMessages, outputMessages } from './content.js';
import { formatTraceParent, parseTraceParent } from './trace-parent.js';
import { fail } from './span-failure.js';
import { endToolSpan, startToolSpan } from './tool-spans.js';

export interface OpenTelemetryOptions {
  /** Where spans go (default: the global provider the app registered with its SDK). */
  readonly tracerProvider?: TracerProvider;
  /**
   * Record message content, tool arguments and results on spans (default: false, or true when
   * `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`). Content may hold personal data.
   */
  readonly captureContent?: boolean;
}

/** The key under which the run's trace context is stored with the invocation (`RunObserver.carry`). */
export const TRACE_PARENT_KEY = 'traceparent';

const INTERRUPT_NAMES = new Set(['RunInterruptedSignal', 'InterruptSignal']);
const FAILED_STATUSES = new Set(['failed', 'aborted', 'budget_exceeded', 'max_iterations']);

/** What is open for one running invocation. */
interface OpenRun {
  readonly root: Span;
  /** Open agent spans by agent run id, with the context that parents their children (made once). */
  readonly agents: Map<string, { readonly span: Span; readonly context: Context }>;
  /** Open model-call spans by call id. */
  readonly calls: Map<string, Span>;
  /** Open tool spans by tool-call id. */
  readonly tools: Map<string, Span>;
  /** Open compaction spans by compaction id, and by agent run the context that parents its summarizer's call. */
  readonly compactions: Map<string, Span>;
  readonly compacting: Map<string, Context>;
  readonly rootContext: Context;
}

const envCapture = (): boolean =>
  typeof process !== 'undefined' && process.env?.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT?.toLowerCase() === 'true';

/**
 * Turns a runner's lifecycle into OpenTelemetry spans (see `openTelemetry`). Spans are started and
 * ended at the times the runner reports; nothing here blocks or changes the run.
 */
class OpenTelemetryObserver implements RunObserver {
  private readonly tracer: Tracer;
  private readonly captureContent: boolean;
  private readonly runs = new Map<string, OpenRun>();

  constructor(options: OpenTelemetryOptions) {
    this.tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer('@replan/otel', '0.1.0');
    this.captureContent = options.captureContent ?? envCapture();
  }

  onRunStart(info: LifecycleInfo<'run-start'>): void {
    const parent = this.parentContext(info);
    const root = this.tracer.startSpan(
      `invoke_agent ${info.agent}`,
      {
        kind: SpanKind.INTERNAL,
        startTime: info.time,
        attributes: {
          [Attr.operationName]: 'invoke_agent',
          [Attr.agentName]: info.agent,
          [Attr.agentPath]: info.agent,
          [Attr.conversationId]: info.sessionId,
          [Attr.invocationId]: info.invocationId,
          ...(info.resumed ? { [Attr.resumed]: true } : {}),
          ...(info.parent ? { [Attr.parentToolCallId]: info.parent.toolCallId } : {}),
        },
      },
      parent,
    );
    this.runs.set(info.invocationId, {
      root,
      agents: new Map(),
      calls: new Map(),
      tools: new Map(),
      compactions: new Map(),
      compacting: new Map(),
      rootContext: trace.setSpan(ROOT_CONTEXT, root),
    });
  }

  /**
   * Where a run's root span hangs: an agent run as a tool (`info.parent`) under the tool call that
   * runs it; a resume under the first run's root, from the stored trace context; else the
   * caller's active context.
   */
  private parentContext(info: LifecycleInfo<'run-start'>): Context {
    if (info.parent) {
      const caller = this.runs.get(info.parent.invocationId);
      const tool = caller?.tools.get(info.parent.toolCallId);
      if (tool) return trace.setSpan(ROOT_CONTEXT, tool);
      const agent = caller?.agents.get(info.parent.agentRunId)?.context ?? caller?.rootContext;
      if (agent) return agent;
    }
    const remote = parseTraceParent(info.carried?.[TRACE_PARENT_KEY]);
    return remote ? trace.setSpanContext(ROOT_CONTEXT, remote) : context.active();
  }

  carry(info: LifecycleInfo<'run-start'>): Record<string, string> | undefined {
    if (info.parent) return undefined; // a child session's trace follows its parent's, resumed or not
    const run = this.runs.get(info.invocationId);
    return run ? { [TRACE_PARENT_KEY]: formatTraceParent(run.root.spanContext()) } : undefined;
  }

  onRunEnd(info: LifecycleInfo<'run-end'>): void {
    const run = this.runs.get(info.invocationId);
    if (!run) return;
    this.runs.delete(info.invocationId);
    // Spans a failure left open (an agent unwound by an abort) end with the run.
    for (const span of run.calls.values()) span.end(info.time);
    for (const span of run.tools.values()) span.end(info.time);
    for (const span of run.compactions.values()) span.end(info.time);
    for (const agent of run.agents.values()) if (agent.span !== run.root) agent.span.end(info.time);
    run.root.setAttribute(Attr.runStatus, info.status);
    // A blocked run is an outcome, not an error: its span stays unset, and names the guardrail that tripped.
    const guardrail = info.result?.guardrail;
    if (guardrail) {
      run.root.setAttribute(Attr.guardrailName, guardrail.name);
      run.root.setAttribute(Attr.guardrailStage, guardrail.stage);
      if (guardrail.reason !== undefined) run.root.setAttribute(Attr.guardrailReason, guardrail.reason);
    }
    if (FAILED_STATUSES.has(info.status)) fail(run.root, info.error, info.status);
    run.root.end(info.time);
  }

  onAgentStart(info: LifecycleInfo<'agent-start'>): void {
    const run = this.runs.get(info.invocationId);
    if (!run) return;
    if (info.parentAgentRunId === undefined && info.path === info.agent) {
      run.agents.set(info.agentRunId, { span: run.root, context: run.rootContext }); // the root agent is the run's root span
      return;
    }
    const parent = (info.parentAgentRunId !== undefined ? run.agents.get(info.parentAgentRunId)?.context : undefined) ?? run.rootContext;
    const span = this.tracer.startSpan(
      `${info.operation} ${info.agent}`,
      {
        kind: SpanKind.INTERNAL,
        startTime: info.time,
        attributes: {
          [Attr.operationName]: info.operation,
          [Attr.agentName]: info.agent,
          [Attr.agentPath]: info.path,
          [Attr.conversationId]: info.sessionId,
          ...(info.branch !== undefined ? { [Attr.branch]: info.branch } : {}),
          ...(info.label !== undefined ? { [Attr.stepId]: info.label } : {}),
        },
      },
      parent,
    );
    run.agents.set(info.agentRunId, { span, context: trace.setSpan(ROOT_CONTEXT, span) });
  }

  onAgentEnd(info: LifecycleInfo<'agent-end'>): void {
    const run = this.runs.get(info.invocationId);
    const span = run?.agents.get(info.agentRunId)?.span;
    if (!run || !span) return;
    run.agents.delete(info.agentRunId);
    if (span === run.root) return; // ended by onRunEnd with the run's status
    if (info.error && INTERRUPT_NAMES.has(info.error.name)) span.setAttribute(Attr.interrupted, true);
    else if (info.error) fail(span, info.error);
    span.end(info.time);
  }

  onModelCallStart(info: LifecycleInfo<'model-call-start'>): void {
    const run = this.runs.get(info.invocationId);
    if (!run) return;
    const settings = info.request.settings;
    // What a sampler may decide on is given at the start (as the conventions ask); the rest is set
    // when the span ends, in one pass: the SDK checks start attributes three times over. Literal
    // keys, no spreads: this runs on every model call (see docs/performance.md).
    const attributes: Attributes = {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': info.provider ?? UNKNOWN_PROVIDER,
      'gen_ai.request.model': info.model,
    };
    if (settings?.maxTokens !== undefined) attributes[Attr.requestMaxTokens] = settings.maxTokens;
    if (settings?.temperature !== undefined) attributes[Attr.requestTemperature] = settings.temperature;
    if (this.captureContent) attributes[Attr.inputMessages] = inputMessages(info.request);
    // A summarizer's call hangs under its `compact` span; any other under its agent's span.
    const parent = run.compacting.get(info.agentRunId) ?? run.agents.get(info.agentRunId)?.context ?? run.rootContext;
    const span = this.tracer.startSpan(`chat ${info.model}`, { kind: SpanKind.CLIENT, startTime: info.time, attributes }, parent);
    run.calls.set(info.callId, span);
  }

  onModelCallEnd(info: LifecycleInfo<'model-call-end'>): void {
    const run = this.runs.get(info.invocationId);
    const span = run?.calls.get(info.callId);
    if (!run || !span) return;
    run.calls.delete(info.callId);
    const usage = info.usage;
    const attributes: Attributes = { 'gen_ai.conversation.id': info.sessionId };
    if (info.finishReason) attributes[Attr.responseFinishReasons] = [info.finishReason];
    // The model that answered: another than the requested one when a fallbackModel handed the call on.
    if (info.response) attributes[Attr.responseModel] = info.model;
    if (usage) {
      attributes[Attr.inputTokens] = usage.inputTokens;
      attributes[Attr.outputTokens] = usage.outputTokens;
      if (usage.cachedTokens !== undefined) attributes[Attr.cacheReadInputTokens] = usage.cachedTokens;
      if (usage.cacheWriteTokens !== undefined) attributes[Attr.cacheCreationInputTokens] = usage.cacheWriteTokens;
      if (usage.reasoningTokens !== undefined) attributes[Attr.reasoningOutputTokens] = usage.reasoningTokens;
      if (info.cost) attributes[Attr.cost] = info.cost;
    }
    span.setAttributes(attributes);
    if (this.captureContent && info.response)
      span.setAttribute(Attr.outputMessages, outputMessages(info.response.message, info.response.finishReason));
    if (info.error) fail(span, info.error);
    span.end(info.time);
  }

  onToolCallStart(info: LifecycleInfo<'tool-call-start'>): void {
    const run = this.runs.get(info.invocationId);
    if (!run) return;
    const parent = run.agents.get(info.agentRunId)?.context ?? run.rootContext;
    run.tools.set(info.toolCallId, startToolSpan(this.tracer, info, run.tools, parent));
  }

  onToolCallEnd(info: LifecycleInfo<'tool-call-end'>): void {
    const run = this.runs.get(info.invocationId);
    const span = run?.tools.get(info.toolCallId);
    if (!run || !span) return;
    run.tools.delete(info.toolCallId);
    endToolSpan(span, info, this.captureContent);
  }

  /** A stopped run `runner.cancel` closes: its root span says so (a live run cancelled has ended already). */
  onCancel(info: LifecycleInfo<'cancel'>): void {
    this.runs.get(info.invocationId)?.root.setAttribute(Attr.cancelCompensate, info.compensate);
  }

  onCompactionStart(info: LifecycleInfo<'compaction-start'>): void {
    const run = this.runs.get(info.invocationId);
    if (!run) return;
    const attributes: Attributes = {
      [Attr.operationName]: 'compact',
      [Attr.agentName]: info.agent,
      [Attr.agentPath]: info.path,
      [Attr.requestModel]: info.model,
      [Attr.compactionTokensBefore]: info.tokensBefore,
    };
    if (info.label !== undefined) attributes[Attr.stepId] = info.label;
    const span = this.tracer.startSpan(
      `compact ${info.agent}`,
      { kind: SpanKind.INTERNAL, startTime: info.time, attributes },
      run.agents.get(info.agentRunId)?.context ?? run.rootContext,
    );
    run.compactions.set(info.compactionId, span);
    run.compacting.set(info.agentRunId, trace.setSpan(ROOT_CONTEXT, span));
  }

  onCompactionEnd(info: LifecycleInfo<'compaction-end'>): void {
    const run = this.runs.get(info.invocationId);
    const span = run?.compactions.get(info.compactionId);
    if (!run || !span) return;
    run.compactions.delete(info.compactionId);
    run.compacting.delete(info.agentRunId);
    // The summarizer's usage under replan's own names: its `chat` child span carries the gen_ai ones,
    // so a backend that sums gen_ai usage over spans counts it once.
    const attributes: Attributes = { [Attr.conversationId]: info.sessionId };
    if (info.tokensAfter !== undefined) attributes[Attr.compactionTokensAfter] = info.tokensAfter;
    if (info.usage) {
      attributes[Attr.compactionInputTokens] = info.usage.inputTokens;
      attributes[Attr.compactionOutputTokens] = info.usage.outputTokens;
    }
    if (info.cost) attributes[Attr.cost] = info.cost;
    if (this.captureContent && info.summary !== undefined) attributes[Attr.compactionSummary] = info.summary;
    span.setAttributes(attributes);
    if (info.error) fail(span, info.error);
    span.end(info.time);
  }
}

/**
 * A run observer that records every run as OpenTelemetry spans following the GenAI semantic
 * conventions: `invoke_agent {agent}` per agent run (nested as agents nest; graph steps are
 * overlapping siblings with `replan.step.id`), `plan {agent}` for planner and replanner turns,
 * `chat {model}` per model call (the only spans with gen_ai token usage), `execute_tool {tool}` (a
 * code step's inner calls nested under its code call's, with `replan.code_call.index`), and
 * `compact {agent}` per compaction of an agent's context (its summarizer's `chat` span inside; the
 * tokens before and after and the summarizer's usage as `replan.compaction.*`; the summary only
 * with content capture).
 * The app brings the SDK: spans go to `tracerProvider`, or the globally registered one.
 *
 * ```ts
 * new Runner({ agent, appName: 'app', observers: [openTelemetry()] });
 * ```
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): RunObserver {
  return new OpenTelemetryObserver(options);
}
