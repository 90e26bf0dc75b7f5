import type { AgentEvent, Tool, ToolCallBlock, ToolResultBlock } from '@replan/core';
import { executeToolCalls, InterruptSignal, type ToolCallRun } from '@replan/core/agent-kit';
import { CodeReplayMismatchError } from './code-replay-mismatch-error.js';
import type { CallAnswer } from './sandbox.js';

/** The `meta` key of an inner call's events: `{ id: <codeCallId>, index: n }` (core keeps such events out of every model's context). */
export const CODE_CALL_META = 'codeCall';

interface InnerRecord {
  call?: ToolCallBlock;
  result?: ToolResultBlock;
}

/** A plain JSON value as text with object keys sorted: stored arguments compare equal however their keys were ordered. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

const shown = (value: unknown) => {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
};

/** What an inner call's stored result tells the program: its output, or (an error result) the text it throws. */
function answerOf(result: ToolResultBlock): CallAnswer {
  if (!result.isError) return { ok: true, value: result.output ?? null };
  return { ok: false, error: typeof result.output === 'string' ? result.output : JSON.stringify(result.output) };
}

/** The inner calls stored for code call `codeCallId`, by index (read on every execution: a resume starts from them). */
function recordsOf(events: readonly AgentEvent[], codeCallId: string): InnerRecord[] {
  const out: InnerRecord[] = [];
  for (const event of events) {
    const tag = event.meta?.[CODE_CALL_META] as { id?: unknown; index?: unknown } | undefined;
    if (!tag || tag.id !== codeCallId || typeof tag.index !== 'number') continue;
    const record = out[tag.index] ?? {};
    out[tag.index] = record;
    for (const block of event.message?.content ?? []) {
      if (block.type === 'tool_call') record.call = block;
      else if (block.type === 'tool_result') record.result = block;
    }
  }
  return out;
}

/**
 * The tool calls of one execution of a program: each stored as its own `tool_call` /
 * `tool_result` pair under the code call (id `<codeCallId>#<n>`), the result durable before the
 * program sees it; on a re-run (resume) each call already stored is answered from the log.
 * Calls run one at a time, in the order the program makes them.
 */
export class InnerCalls {
  private readonly records: InnerRecord[];
  private made = 0;
  private closed = false;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly run: ToolCallRun,
    private readonly codeCall: { readonly id: string; readonly name: string },
    private readonly tools: ReadonlyMap<string, Tool>,
    private readonly maxCalls: number,
    /** Aborted when the run stops or the program's time is up: the running tool gets it. */
    private readonly signal: AbortSignal,
  ) {
    this.records = recordsOf(run.invocation.events, codeCall.id);
  }

  /** The program's call number `index`, queued behind the ones before it. */
  call(name: string, args: unknown, index: number): Promise<CallAnswer> {
    const next = this.queue.then(() => this.callNow(name, args, index));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * The program has ended: calls it made without awaiting them are not started (nothing is
   * recorded for them), and the promise settles once the running one has ended (the caller aborts
   * it first).
   */
  close(): Promise<unknown> {
    this.closed = true;
    return this.queue;
  }

  /** After the program ended on its own: a record with more calls than it made is a mismatch. */
  checkEnd(): void {
    if (this.records.length > this.made)
      throw this.mismatch(
        this.made,
        `the program ended after ${this.made} tool call(s), the record has ${this.records.length} (next: tools.${this.records[this.made]?.call?.name ?? '?'})`,
      );
  }

  private mismatch(index: number, difference: string) {
    return new CodeReplayMismatchError(this.codeCall.id, index, difference);
  }

  private async callNow(name: string, args: unknown, index: number): Promise<CallAnswer> {
    if (this.closed) throw new Error('the program ended before this call could start');
    this.made = index + 1;
    if (index >= this.maxCalls)
      throw new Error(
        `the program made more than limits.toolCalls = ${this.maxCalls} tool calls; do fewer calls per program (batch the work, or split it over several programs)`,
      );
    const id = `${this.codeCall.id}#${index}`;
    const meta = { [CODE_CALL_META]: { id: this.codeCall.id, index } };
    const stored = this.records[index];
    if (stored?.call) {
      if (stored.call.name !== name)
        throw this.mismatch(index, `the program called tools.${name}, the record has tools.${stored.call.name}`);
      if (canonical(stored.call.args) !== canonical(args))
        throw this.mismatch(index, `tools.${name} got the arguments ${shown(args)}, the record has ${shown(stored.call.args)}`);
      if (stored.result) return answerOf(stored.result); // finished before: its side effect is not repeated
      // Started but never finished (a crash, or a question not yet answered): it runs again, with the same idempotencyKey.
    } else if (this.records.length > index) {
      throw this.mismatch(index, `the record has no call at this position`);
    }
    const call: ToolCallBlock = { type: 'tool_call', id, name, args: args as Record<string, unknown> };
    if (!stored?.call) await this.run.record({ message: { role: 'assistant', content: [call] }, meta });
    const invocation = this.run.invocation.withSignal(this.signal);
    // The calling agent's grants (a plan step approved with this tool and these arguments) cover
    // the program's call as they would the agent's own: the step was approved to make it.
    // The agent's tool middleware wraps it too (audit, hooks, offloading): only here, where the call
    // really runs — a call answered from the log above runs no middleware again.
    const execution = executeToolCalls(invocation, [call], {
      tools: this.tools,
      concurrency: 1,
      grants: this.run.grants,
      wrap: this.run.wrap,
    });
    let resultEvent: AgentEvent | undefined;
    let step = await execution.next();
    for (; !step.done; step = await execution.next()) if (step.value.message?.role === 'tool') resultEvent = step.value;
    if (step.value.length) {
      // The run stops on the inner call's question; the interrupt closes the code call if it is abandoned.
      const [first, ...more] = step.value.map((i) => ({ ...i, toolCallId: this.codeCall.id, toolName: this.codeCall.name }));
      throw new InterruptSignal(first as (typeof step.value)[number], ...more);
    }
    const block = resultEvent?.message?.content.find((b): b is ToolResultBlock => b.type === 'tool_result');
    if (!resultEvent?.message || !block) throw new Error(`tool "${name}" produced no result`);
    await this.run.record({
      message: resultEvent.message,
      ...(resultEvent.actions ? { actions: resultEvent.actions } : {}),
      meta: { ...resultEvent.meta, ...meta },
    });
    return answerOf(block);
  }
}
