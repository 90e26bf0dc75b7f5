import { z } from 'zod';
import type { Agent } from '../invocation/agent.js';
import { assertUniqueAgentNames } from '../invocation/agent-name.js';
import { AgentToolError } from '../errors/composition-errors.js';
import { ConfigurationError } from '../errors/replan-error.js';
import { ConcurrentUpdateError } from '../errors/session-errors.js';
import type { AgentEvent, Interrupt } from '../events/agent-event.js';
import type { ContentBlock } from '../messages/content-block.js';
import { type Message, toUserMessage } from '../messages/message.js';
import { runChildSession } from '../runner/child-session.js';
import type { RunResult } from '../events/run-result.js';
import type { SchemaInput, SchemaOutput } from '../tools/schemas/schema-input.js';
import { type Tool, tool } from '../tools/tool.js';
import type { ToolContext } from '../tools/tool-context.js';
import { InterruptSignal } from '../tools/interrupt-signal.js';
import { toolRuntimeOf } from '../invocation/tool-runtime.js';
import { childSessionId } from '../sessions/child-session-link.js';
import { isMediaBlock } from '../messages/media-check.js';
import { inlineBlobs, sessionBlobReader } from '../sessions/blobs/inline-blobs.js';
import type { SessionKey } from '../sessions/session.js';
import type { SessionStore } from '../sessions/session-store.js';

/** The default parameters of an agent tool: one text input. */
export const agentToolParameters = z.object({
  input: z.string().describe('What to ask the agent: the whole task, since it sees nothing else.'),
});

/** A finished child run, as `output` receives it (`status` is always `'completed'`). */
export type AgentToolResult = RunResult;

export interface AgentToolOptions<Schema extends SchemaInput, Output> {
  /** The tool's name (default: the agent's name). 1-64 letters, digits, `_` or `-`. */
  readonly name?: string;
  /** What the calling model reads about the tool (default: the agent's description). */
  readonly description?: string;
  /**
   * The tool's arguments (default `{ input: string }`): a zod v4 or v3 object, or a JSON Schema, like
   * `tool({ parameters })`. They are all the agent sees.
   */
  readonly parameters?: Schema;
  /**
   * The child session's user message, from the arguments. Default: the `input` argument when it
   * is a string, else the arguments as JSON.
   */
  readonly input?: (args: SchemaOutput<Schema>) => string | Message | readonly ContentBlock[];
  /**
   * The tool result, from the child's run (default: its structured answer, else its answer text —
   * or, when the answer carries images or files, content blocks: the text, then them). It may
   * return content blocks (`ToolResultContent[]`) as any tool may.
   */
  readonly output?: (result: AgentToolResult) => Output | Promise<Output>;
}

function defaultInput(args: unknown): string {
  const input = (args as { input?: unknown } | null)?.input;
  return typeof input === 'string' ? input : JSON.stringify(args);
}

const defaultOutput = (result: AgentToolResult): unknown => (result.structured !== undefined ? result.structured : (result.output ?? ''));

/**
 * Runs an agent as a tool. Each call runs the agent in a **child session** of the same store
 * (its id derived from the parent session, invocation and tool call; the link is in the child's
 * first event), seeing only the tool's input, never the caller's history. Its events reach the
 * outer run's stream under `<caller path>/<tool name>/…`; its model calls count in the outer
 * run's usage and limits. An interrupt inside suspends the outer run with the id
 * `<toolCallId>/<inner interrupt id>`; answering that id resumes the inner agent, then this call.
 * A child that fails or stops at `max_iterations` gives the calling model an error result.
 */
export function agentTool<Schema extends SchemaInput = typeof agentToolParameters, Output = unknown>(
  agent: Agent,
  options: AgentToolOptions<Schema, Output> = {},
): Tool<SchemaOutput<Schema>, unknown> {
  if (!agent || typeof agent.run !== 'function') throw new ConfigurationError('agentTool needs an agent (an object with run(ctx)).');
  assertUniqueAgentNames(agent);
  const name = options.name ?? agent.name;
  const description =
    options.description ?? (agent.description || `Runs the agent "${agent.name}" on the given input and returns its answer.`);
  const toInput = options.input ?? defaultInput;
  const toOutput = options.output ?? defaultOutput;
  return tool({
    name,
    description,
    parameters: (options.parameters ?? agentToolParameters) as Schema,
    execute: async (args: SchemaOutput<Schema>, toolCtx: ToolContext) => {
      const runtime = toolRuntimeOf(toolCtx);
      if (!runtime) throw new ConfigurationError(`agentTool "${name}" runs only inside a Runner (called without a run).`);
      const parent = runtime.invocation;
      const { session } = parent.services;
      const id = childSessionId(session.id, toolCtx.invocationId, toolCtx.toolCallId);
      runtime.resultMeta = { childSessionId: id };
      const nestedPath = `${parent.path}/${name}`;
      const prefix = `${toolCtx.toolCallId}/`;
      const values: Record<string, unknown> = {};
      for (const [key, value] of parent.services.resumeValues) if (key.startsWith(prefix)) values[key.slice(prefix.length)] = value;
      const forward = parent.services.forward;
      const childKey = { appName: session.appName, userId: session.userId, id };
      let answer: Message | undefined;
      const result = await runChildSession({
        parent,
        agent,
        key: { appName: session.appName, userId: session.userId, id },
        link: {
          schemaVersion: 1,
          parentSessionId: session.id,
          parentInvocationId: toolCtx.invocationId,
          toolCallId: toolCtx.toolCallId,
          toolName: name,
          path: parent.path,
        },
        // Images and files the input takes from this session come as bytes: the child keeps its own blobs.
        input: await withBlobBytes(toUserMessage(toInput(args)), parent.services.store, session),
        values,
        emit: (event) => {
          if (event.actions?.final && event.message && !event.partial) answer = event.message;
          const nested = nestedEvent(event, nestedPath, id);
          if (nested) forward?.(nested);
        },
      });
      switch (result.status) {
        case 'completed': {
          if (options.output) return toOutput(result);
          const media = answer && (await withBlobBytes(answer, parent.services.store, childKey)).content.filter(isMediaBlock);
          return media?.length ? [{ type: 'text', text: result.output ?? '' }, ...media] : toOutput(result);
        }
        case 'interrupted': {
          const [first, ...more] = result.interrupts.map((i) => nestedInterrupt(i, prefix, nestedPath, agent.name));
          if (!first) throw new AgentToolError(name, agent.name, result.status, id, 'interrupted without an open question');
          throw new InterruptSignal(first, ...more);
        }
        case 'blocked': {
          const trip = result.guardrail;
          throw new AgentToolError(
            name,
            agent.name,
            result.status,
            id,
            `blocked by the ${trip?.stage} guardrail "${trip?.name}"${trip?.reason ? `: ${trip.reason}` : ''}`,
          );
        }
        case 'aborted':
        case 'budget_exceeded':
          throw result.error; // the outer run stops the same way, resumable
        default:
          // The child's lease was lost or its log written by another run: that run holds the tree; this one stops, resumable.
          if (result.error instanceof ConcurrentUpdateError) throw result.error;
          throw new AgentToolError(name, agent.name, result.status, id, result.error?.message);
      }
    },
  });
}

/** `message` with the bytes of the blobs it names (of session `key`) inline, so another session can store it. */
async function withBlobBytes(message: Message, store: SessionStore | undefined, key: SessionKey): Promise<Message> {
  const [inline] = await inlineBlobs([message], sessionBlobReader(store, key));
  return inline ?? message;
}

/** The inner interrupt as the outer run holds it: its id and path carry the nesting. */
function nestedInterrupt(inner: Interrupt, prefix: string, nestedPath: string, agentName: string): Interrupt {
  return { ...inner, id: `${prefix}${inner.id}`, path: `${nestedPath}/${inner.path ?? agentName}` };
}

/**
 * An event of the child session as the outer stream shows it: under the nested path, with
 * `meta.childSessionId`. The runner's own records (the input, resume markers, the end marker) and
 * the inner interrupt events (the outer run stores its own, with the nested id) are not forwarded.
 */
function nestedEvent(event: AgentEvent, nestedPath: string, childSessionId: string): AgentEvent | undefined {
  if (event.path === 'user' || event.actions?.invocationEnd || event.actions?.interrupt) return undefined;
  return { ...event, path: `${nestedPath}/${event.path}`, meta: { ...event.meta, childSessionId } };
}
