import type { Interrupt } from '../events/agent-event.js';
import { InterruptSignal } from '../tools/interrupt-signal.js';
import type { Tool } from '../tools/tool.js';
import type { ToolContext } from '../tools/tool-context.js';
import { toolRuntimeOf } from '../invocation/tool-runtime.js';
import { type RecordedSession, recordedEvents } from './recorded-session.js';

export interface ReplayToolsOptions {
  /**
   * Run the real tools instead of returning recorded results: `true` for all, or the names of
   * those to run (default: none). Use it to test a tool change against the recorded decisions.
   * Live tools still get the recorded answers to their approvals and `ctx.interrupt` questions.
   */
  readonly live?: boolean | readonly string[];
}

/** One recorded tool call of a session, in call order. */
export interface RecordedToolCall {
  /** The path of the agent that called it. */
  readonly path: string;
  readonly name: string;
  readonly args: unknown;
  /** The output given to the model (absent when the call has no stored result, or failed). */
  readonly result?: unknown;
  /** The error result given to the model (`isError: true`), as text. */
  readonly error?: string;
  /** The call id: volatile (a provider mints new ones every run), so compare calls by name and args. */
  readonly callId: string;
}

interface CallRecording {
  result?: { readonly output: unknown; readonly isError: boolean };
  /** Position of its result in the log. */
  order: number;
  readonly interrupts: Interrupt[];
  /** The other calls of the same model turn (same agent path), in the recording. */
  siblings: readonly CallRecording[];
  /** Resolved once a replayed call returned this result: a later sibling waits for it (see `replayedTool`). */
  readonly returned: Promise<void>;
  markReturned: () => void;
  readonly name: string;
}

/** The recorded calls, results, interrupts and answers of a session, by `path` + call id and by call id alone. */
class ToolRecording {
  private readonly byKey = new Map<string, CallRecording>();
  private readonly byId = new Map<string, CallRecording | null>(); // null: the id is used on several paths
  readonly answers = new Map<string, unknown>();

  constructor(session: RecordedSession) {
    let order = 0;
    for (const event of recordedEvents(session)) {
      if (event.message?.role === 'assistant') {
        const turn = event.message.content.flatMap((b) => (b.type === 'tool_call' ? [this.at(event.path, b.id, b.name)] : []));
        for (const call of turn) call.siblings = turn.filter((c) => c !== call);
      }
      for (const block of event.message?.content ?? [])
        if (block.type === 'tool_result') {
          const call = this.at(event.path, block.toolCallId, block.name);
          call.result = { output: block.output, isError: block.isError === true };
          call.order = order++;
        }
      const interrupt = event.actions?.interrupt;
      if (interrupt?.toolCallId) this.at(event.path, interrupt.toolCallId, interrupt.toolName).interrupts.push(interrupt);
      for (const [id, value] of Object.entries(event.actions?.resumeValues ?? {})) this.answers.set(id, value);
    }
  }

  private at(path: string, callId: string, name = ''): CallRecording {
    const key = `${path}\n${callId}`;
    let call = this.byKey.get(key);
    if (!call) {
      let markReturned = () => {};
      const returned = new Promise<void>((resolve) => {
        markReturned = resolve;
      });
      call = { interrupts: [], order: Number.POSITIVE_INFINITY, siblings: [], returned, markReturned, name };
      this.byKey.set(key, call);
      this.byId.set(callId, this.byId.has(callId) ? null : call);
    }
    return call;
  }

  /** The recording of the call `ctx` runs: matched by the agent path and call id (a replay serves the recorded ids). */
  of(ctx: ToolContext): CallRecording | undefined {
    const path = toolRuntimeOf(ctx)?.invocation.path;
    return (path !== undefined ? this.byKey.get(`${path}\n${ctx.toolCallId}`) : undefined) ?? this.byId.get(ctx.toolCallId) ?? undefined;
  }
}

/**
 * Wraps `tools` so each call returns the result recorded for that call in `session` — matched by
 * the calling agent's path and the call id, which `ReplayModel` serves as recorded — without
 * running the tool, so side effects are not repeated. A recorded error result is returned as an
 * error result again, exactly as stored, so the next model request matches the recording.
 *
 * Approvals and `ctx.interrupt` questions replay their recorded answers: a recorded call that was
 * approved (or answered) after a resume returns its recorded result in one go, so a replay of a
 * run that was interrupted and resumed runs to its end without stopping; a call whose question
 * was never answered in the recording stops the replay with the same interrupt. Calls the
 * recording does not hold (new calls of a live `fallback` model) run the real tool.
 */
export function replayTools(session: RecordedSession, tools: readonly Tool[], options: ReplayToolsOptions = {}): Tool[] {
  const recording = new ToolRecording(session);
  const live = options.live;
  const isLive = (name: string) => live === true || (Array.isArray(live) && live.includes(name));
  const wrapped = new Set(tools.map((t) => t.name));
  return tools.map((tool) => replayedTool(tool, recording, isLive(tool.name), wrapped));
}

/** Longest wait for an earlier sibling's result that never comes (the run went another way). */
const SIBLING_WAIT_MS = 1000;

/**
 * Waits until the calls of the same recorded model turn whose results were stored before this
 * one have returned theirs: results are stored as calls finish, and the next request lists them
 * in that order, so replayed results keep the recorded order.
 */
async function inRecordedTurnOrder(call: CallRecording, wrapped: ReadonlySet<string>): Promise<void> {
  const earlier = call.siblings.filter((s) => s.result && s.order < call.order && wrapped.has(s.name));
  if (!earlier.length) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, SIBLING_WAIT_MS);
  });
  await Promise.race([Promise.all(earlier.map((s) => s.returned)), timeout]);
  clearTimeout(timer);
}

function replayedTool(tool: Tool, recording: ToolRecording, live: boolean, wrapped: ReadonlySet<string>): Tool {
  const needsApproval = tool.needsApproval;
  const approvalAnswered = (ctx: ToolContext) => recording.answers.has(`${ctx.toolCallId}:approval`);
  return {
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    schemaKind: tool.schemaKind,
    jsonSchema: tool.jsonSchema,
    parseArgs: (args) => tool.parseArgs(args),
    ...(needsApproval === undefined
      ? {}
      : {
          // Recorded: the stored result (or the recorded answer) already holds the human's decision.
          needsApproval: (args: unknown, ctx: ToolContext) => {
            if (approvalAnswered(ctx) || (!live && recording.of(ctx)?.result)) return false;
            return typeof needsApproval === 'function' ? needsApproval(args, ctx) : needsApproval;
          },
        }),
    execute: async (args: unknown, ctx: ToolContext) => {
      const recorded = recording.of(ctx);
      const rejected = approvalAnswered(ctx) && !isApproved(recording.answers.get(`${ctx.toolCallId}:approval`));
      if (recorded?.result && (!live || rejected)) {
        await inRecordedTurnOrder(recorded, wrapped);
        recorded.markReturned();
        const runtime = toolRuntimeOf(ctx);
        if (recorded.result.isError && runtime) runtime.errorResult = true;
        return recorded.result.output;
      }
      if (!live && recorded) {
        // Stopped on a question the recording never answered: stop again, without running the tool.
        const open = recorded.interrupts.filter((i) => i.reason !== 'approval' && !recording.answers.has(i.id));
        if (open.length) throw new InterruptSignal(...(open as [Interrupt, ...Interrupt[]]));
      }
      if (!recorded?.result) return tool.execute(args, withRecordedAnswers(ctx, recording.answers));
      // A live run of a recorded call: its result still takes its recorded place among its siblings'.
      try {
        return await tool.execute(args, withRecordedAnswers(ctx, recording.answers));
      } finally {
        await inRecordedTurnOrder(recorded, wrapped);
        recorded.markReturned();
      }
    },
  };
}

const isApproved = (answer: unknown) =>
  answer === true || (typeof answer === 'object' && answer !== null && (answer as { approved?: unknown }).approved === true);

/** `ctx` whose `interrupt` returns the recorded answer to each question (ids `<callId>:<n>`), asking for real otherwise. */
function withRecordedAnswers(ctx: ToolContext, answers: ReadonlyMap<string, unknown>): ToolContext {
  let asked = 0;
  return {
    ...ctx,
    interrupt<T>(payload: unknown, opts?: { reason?: string }): T {
      const id = `${ctx.toolCallId}:${++asked}`;
      return answers.has(id) ? (answers.get(id) as T) : ctx.interrupt<T>(payload, opts);
    },
  };
}

/**
 * The tool calls a session ran, in call order, each with its result or error: the calls that have
 * a stored result or interrupt (a planner's `plan` call, a decision and not a tool run, has neither).
 */
export function recordedToolCalls(session: RecordedSession): RecordedToolCall[] {
  const events = recordedEvents(session);
  const results = new Map<string, { output: unknown; isError: boolean } | null>(); // null: interrupted, no result
  for (const event of events) {
    const interrupt = event.actions?.interrupt;
    if (interrupt?.toolCallId && !results.has(`${event.path}\n${interrupt.toolCallId}`))
      results.set(`${event.path}\n${interrupt.toolCallId}`, null);
    for (const block of event.message?.content ?? [])
      if (block.type === 'tool_result')
        results.set(`${event.path}\n${block.toolCallId}`, { output: block.output, isError: block.isError === true });
  }
  const calls: RecordedToolCall[] = [];
  for (const event of events) {
    if (event.message?.role !== 'assistant') continue;
    for (const block of event.message.content) {
      if (block.type !== 'tool_call') continue;
      const result = results.get(`${event.path}\n${block.id}`);
      if (result === undefined) continue;
      const outcome = !result
        ? {}
        : result.isError
          ? { error: typeof result.output === 'string' ? result.output : JSON.stringify(result.output) }
          : { result: result.output };
      calls.push({ path: event.path, name: block.name, args: block.args, ...outcome, callId: block.id });
    }
  }
  return calls;
}
