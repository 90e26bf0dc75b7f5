import { ConfigurationError, jsonSchema, type Tool, tool, type ToolContext } from '@replan/core';
import { toolCallRun } from '@replan/core/agent-kit';
import { codeToolDescription } from './code-description.js';
import { type CodeLimits, resolveLimits } from './code-limits.js';
import { InnerCalls } from './inner-calls.js';
import { runSandboxed, type SandboxOutcome } from './sandbox.js';

/** Options of `codeTool`. */
export interface CodeToolOptions {
  /** The tools a program may call, as `await tools.<name>(args)`. */
  readonly tools: readonly Tool[];
  /** The code tool's name (default `run_code`). */
  readonly name?: string;
  /** The first paragraph of its description (the functions and limits are always appended). */
  readonly description?: string;
  readonly limits?: CodeLimits;
}

/** What a program returned, as the code call's result: its JSON value, and its `console` lines when it wrote any. */
export interface CodeResult {
  readonly result: unknown;
  readonly logs?: readonly string[];
}

/** FNV-1a of the code call id: `Math.random`'s seed, the same on every run of the call. */
function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

/** When the model made the call (its stored event's time): the program's frozen clock, the same on resume. */
function callTime(events: readonly { timestamp: number; message?: { content: readonly { type: string; id?: string }[] } }[], id: string) {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (event?.message?.content.some((b) => b.type === 'tool_call' && b.id === id)) return event.timestamp;
  }
  return Date.now();
}

/** A failure's text for the model, with the console lines before it; bounded like output (a program's error message is its own text). */
function failureText(message: string, logs: readonly string[], maxChars: number): string {
  const text = logs.length ? `${message}\nconsole output before it stopped:\n${logs.join('\n')}` : message;
  return text.length > maxChars ? `${text.slice(0, maxChars)}… (cut at limits.outputBytes)` : text;
}

/**
 * A tool whose argument is a JavaScript program — the body of an async function — run in a
 * QuickJS sandbox (WASM: no host objects, no network, no timers, no modules). Inside, each of
 * `tools` is `await tools.<name>(args)`; what the program returns (JSON), with its `console.log`
 * lines, is the tool's result (`CodeResult`).
 *
 * Durable by replay: each call the program makes is stored as a tool call of its own (id
 * `<codeCallId>#<n>`, `meta.codeCall`), its result stored before the program sees it. After a
 * crash or an interrupt the program runs again from the start and every stored result is
 * answered from the log, so a finished side effect never repeats; a call that started but never
 * finished runs again (its `idempotencyKey` is `<sessionId>:<codeCallId>#<n>` each time). A
 * program that calls differently on the re-run ends with `CodeReplayMismatchError`, nothing run.
 * `needsApproval` and `ctx.interrupt()` inside work as for any call (interrupt ids
 * `<codeCallId>#<n>:approval`, `<codeCallId>#<n>:<k>`).
 *
 * Every failure of the program (a throw, invalid JavaScript, a non-JSON value, an unknown tool,
 * a limit) is an error result the model reads; the process is never harmed.
 */
export function codeTool(options: CodeToolOptions): Tool<{ program: string }, CodeResult> {
  const name = options.name ?? 'run_code';
  const limits = resolveLimits(name, options.limits);
  const tools = new Map<string, Tool>();
  for (const t of options.tools) {
    if (tools.has(t.name)) throw new ConfigurationError(`codeTool "${name}": two tools are named "${t.name}"; tool names must be unique.`);
    tools.set(t.name, t);
  }
  const toolNames = [...tools.keys()];
  return tool({
    name,
    description: codeToolDescription(options.tools, limits, options.description),
    parameters: jsonSchema<{ program: string }>({
      type: 'object',
      properties: {
        program: {
          type: 'string',
          description: 'The body of an async JavaScript function: await tools.<name>(args) calls, then return a JSON value.',
        },
      },
      required: ['program'],
      additionalProperties: false,
    }),
    async execute(args: { program: string }, ctx: ToolContext): Promise<CodeResult> {
      const run = toolCallRun(ctx);
      if (!run) throw new Error(`the code tool "${name}" runs only inside a Runner (its tool calls are stored in the session)`);
      const stop = new AbortController();
      const signal = AbortSignal.any([ctx.signal, stop.signal]);
      const inner = new InnerCalls(run, { id: ctx.toolCallId, name }, tools, limits.toolCalls, signal);
      let outcome: SandboxOutcome;
      try {
        outcome = await runSandboxed({
          program: args.program,
          limits,
          toolNames,
          now: callTime(run.invocation.events, ctx.toolCallId),
          seed: seedOf(ctx.toolCallId),
          signal: ctx.signal,
          call: (tool, callArgs, index) => inner.call(tool, callArgs, index),
        });
      } finally {
        // Calls the program did not await are not started; one still running when it ended (its time ran out,
        // or it returned without awaiting) is stopped, and ends before the code call's result is stored.
        const idle = inner.close();
        stop.abort(new Error('the program ended'));
        await idle;
      }
      switch (outcome.kind) {
        case 'returned':
          inner.checkEnd();
          return outcome.logs.length ? { result: outcome.value, logs: outcome.logs } : { result: outcome.value };
        case 'stopped':
          throw outcome.error;
        case 'thrown':
        case 'non-json':
          inner.checkEnd();
          throw new Error(failureText(`the program failed: ${outcome.message}`, outcome.logs, limits.outputBytes));
        default:
          throw new Error(failureText(outcome.message, outcome.logs, limits.outputBytes));
      }
    },
  });
}
