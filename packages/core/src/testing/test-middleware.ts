import { ReActAgent } from '../agents/react-agent.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { ToolResultBlock } from '../messages/content-block.js';
import type { Middleware } from '../middleware/middleware.js';
import type { ModelRequest } from '../models/chat-model.js';
import type { RunResult } from '../events/run-result.js';
import { Runner } from '../runner/runner.js';
import { InMemorySessionStore } from '../sessions/in-memory-session-store.js';
import type { SessionStore } from '../sessions/session-store.js';
import type { Tool } from '../tools/tool.js';
import { ScriptedModel, type ScriptedReply } from './scripted-model.js';

export interface MiddlewareTestOptions {
  /** The agent's model: a `ScriptedModel`, or the answers to script one with (one per call). */
  readonly model: ScriptedModel | readonly ScriptedReply[];
  readonly tools?: readonly Tool[];
  readonly instruction?: string;
  /** The user's input (default `'go'`). */
  readonly input?: string;
  /** Where the session is kept (default: a new in-memory store). */
  readonly store?: SessionStore;
  /** The agent's `maxIterations` (default 10). */
  readonly maxIterations?: number;
  /** Stream the run (partial events), as `runner.run({ stream: true })` does. */
  readonly stream?: boolean;
}

/** One run (or resume) of a middleware under test, and what to inspect. */
export interface MiddlewareTestRun {
  readonly result: RunResult;
  readonly model: ScriptedModel;
  /** The requests the model received in this run, after every middleware. */
  readonly requests: readonly ModelRequest[];
  /** Every stored event of the session (this run's and earlier ones). */
  readonly events: readonly AgentEvent[];
  /** The tool results stored in the session, in order (as the log keeps them, not as the model was shown them). */
  readonly toolResults: readonly ToolResultBlock[];
  /** The events middleware `name` recorded (`meta.middleware`), in order. */
  recorded(name: string): readonly AgentEvent[];
  /** Resumes the same session with the same agent (answers to interrupts in `values`). */
  resume(values?: Record<string, unknown>): Promise<MiddlewareTestRun>;
}

/**
 * Runs a `ReActAgent` with `middleware` (the first the outermost) on a scripted model, offline,
 * and returns what to check: the requests the model got, the stored events and tool results, the
 * events each middleware recorded, and `resume()` to check that a resumed run rebuilds its work.
 *
 * ```ts
 * const run = await testMiddleware(redactEmails(), { model: ['ok'], input: 'mail ann@example.com' });
 * expect(JSON.stringify(run.requests[0])).not.toContain('ann@example.com');
 * ```
 */
export async function testMiddleware(
  middleware: Middleware | readonly Middleware[],
  options: MiddlewareTestOptions,
): Promise<MiddlewareTestRun> {
  const model = options.model instanceof ScriptedModel ? options.model : new ScriptedModel({ responses: options.model });
  const store = options.store ?? new InMemorySessionStore();
  const agent = new ReActAgent({
    name: 'agent',
    model,
    middleware: Array.isArray(middleware) ? middleware : [middleware as Middleware],
    ...(options.tools ? { tools: options.tools } : {}),
    ...(options.instruction ? { instruction: options.instruction } : {}),
    ...(options.maxIterations !== undefined ? { maxIterations: options.maxIterations } : {}),
  });
  const runner = new Runner({ agent, appName: 'middleware-test', sessionStore: store });
  const userId = 'tester';
  const stream = options.stream ? { stream: true } : {};
  const inspect = async (from: number, result: RunResult): Promise<MiddlewareTestRun> => {
    const events = (await store.get({ appName: 'middleware-test', userId, id: result.sessionId }))?.events ?? [];
    const toolResults = events.flatMap((e) =>
      e.message?.role === 'tool' ? e.message.content.filter((b): b is ToolResultBlock => b.type === 'tool_result') : [],
    );
    return {
      result,
      model,
      requests: model.requests.slice(from),
      events,
      toolResults,
      recorded: (name) => events.filter((e) => e.meta?.middleware === name),
      resume: async (values) => {
        const start = model.requests.length;
        const resumed = runner.resume({ userId, sessionId: result.sessionId, ...(values ? { values } : {}), ...stream });
        return inspect(start, await resumed.result());
      },
    };
  };
  const start = model.requests.length;
  const run = runner.run({ userId, input: options.input ?? 'go', ...stream });
  return inspect(start, await run.result());
}
