import {
  toolCallsOf,
  toolMessage,
  userMessage,
  type AgentEvent,
  type ChatModel,
  type InvocationContext,
  type Message,
  type ModelRequest,
  type ModelResponse,
  type Middleware,
  type ToolCallBlock,
} from '@replan/core';
import { callModel, callModelThrough } from '@replan/core/agent-kit';
import type { z } from 'zod';
import { tagged, tagOf } from './event-tags.js';
import { PlanningError } from './planning-error.js';

/** What a planner or replanner read from a model answer: a value, or what is wrong with it. */
export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string };

export interface DecisionCallOptions<T> {
  readonly model: ChatModel;
  /** The request of the first attempt; repairs append the faulty answer and the error to it. */
  readonly request: ModelRequest;
  readonly parse: (message: Message) => Parsed<T>;
  /** Appended to each repair message: how to answer correctly. */
  readonly repairHint: string;
  /** Repair attempts before `PlanningError` (default 2). */
  readonly maxRepairs?: number;
  /**
   * Checks a parsed value (a plan policy): a problem string refuses it like a parse failure (repair,
   * then `PlanningError`); `attempt` counts the model answers of this decision from 1.
   */
  readonly check?: (value: T, attempt: number) => Promise<string | undefined>;
  /**
   * Makes one attempt's model call (default: core's `callModel` with `options.model`), yielding
   * events to store and returning the response. Untagged events are tagged `planning`.
   */
  readonly call?: (request: ModelRequest) => AsyncGenerator<AgentEvent, ModelResponse, undefined>;
  /** The role's middleware (`prepareRequest` and `wrapModelCall`), around each attempt's model call. */
  readonly middleware?: readonly Middleware[];
}

export interface Decision<T> {
  readonly value: T;
  readonly response: ModelResponse;
}

/**
 * One planner/replanner decision: a model call whose answer must parse. A faulty answer is stored
 * with a user-role repair message naming the problem (and error results for its tool calls, which
 * providers require after a tool call), and the model is asked again. On resume the stored repairs
 * are replayed, so an interrupted decision does not start over. Yields the events to store.
 */
export async function* decisionCall<T>(
  ctx: InvocationContext,
  options: DecisionCallOptions<T>,
): AsyncGenerator<AgentEvent, Decision<T>, undefined> {
  const maxRepairs = options.maxRepairs ?? 2;
  const messages = [...options.request.messages];
  let failures = 0;
  for (const event of ctx.ownEvents()) {
    if (tagOf(event) !== 'repair') continue;
    if (event.message) messages.push(event.message);
    failures = Math.max(failures, Number(event.meta?.attempt ?? 0));
  }
  for (;;) {
    const request = { ...options.request, messages: [...messages] }; // a copy: repairs extend `messages`
    const calling = options.call
      ? options.call(request)
      : options.middleware?.length
        ? callModelThrough(options.middleware, ctx, options.model, request)
        : callModel(ctx, options.model, request);
    let next = await calling.next();
    for (; !next.done; next = await calling.next()) yield tagOf(next.value) ? next.value : tagged(next.value, 'planning');
    const response = next.value;
    const parsed = await checked(options, options.parse(response.message), failures + 1);
    if (parsed.ok) return { value: parsed.value, response };

    failures++;
    if (failures > maxRepairs) throw new PlanningError(ctx.agent.name, response.message, parsed.problem, failures);
    const meta = { attempt: failures, problem: parsed.problem };
    const answer = ctx.event({ message: response.message, ...(response.usage ? { usage: response.usage } : {}) });
    const repairs = [answer];
    const calls = toolCallsOf(response.message);
    if (calls.length) repairs.push(ctx.event({ message: rejectedCalls(calls, parsed.problem) }));
    repairs.push(ctx.event({ message: userMessage(`Your answer could not be used: ${parsed.problem}. ${options.repairHint}`) }));
    for (const event of repairs) {
      yield tagged(event, 'repair', meta);
      messages.push(event.message as Message);
    }
  }
}

/** A parsed value passed through `options.check`, if any. */
async function checked<T>(options: DecisionCallOptions<T>, parsed: Parsed<T>, attempt: number): Promise<Parsed<T>> {
  if (!parsed.ok || !options.check) return parsed;
  const problem = await options.check(parsed.value, attempt);
  return problem === undefined ? parsed : { ok: false, problem };
}

/** Error results for every tool call of a rejected answer. */
function rejectedCalls(calls: readonly ToolCallBlock[], problem: string): Message {
  return toolMessage(
    calls.map((c) => ({ type: 'tool_result', toolCallId: c.id, name: c.name, output: `Error: not applied: ${problem}`, isError: true })),
  );
}

/** Validates a tool call's arguments against a schema. */
export function parseCallArgs<S extends z.ZodType>(call: ToolCallBlock, schema: S): Parsed<z.output<S>> {
  if (call.argsError) return { ok: false, problem: `the arguments of "${call.name}" are not valid JSON (${call.argsError})` };
  return parseWith(schema, call.args, `the arguments of "${call.name}"`);
}

/** Validates a value against a schema, naming each issue by its path. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, what: string): Parsed<z.output<S>> {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const issues = result.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`).join('; ');
  return { ok: false, problem: `${what} do not match the schema (${issues})` };
}

/** Names the tool calls of an answer, for "you called X" problems. */
export const calledNames = (calls: readonly ToolCallBlock[]): string =>
  calls.length ? `it called ${calls.map((c) => `"${c.name}"`).join(', ')}` : 'it called no tool';
