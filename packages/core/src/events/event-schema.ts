import { z } from 'zod';
import type { AgentEvent } from './agent-event.js';

const contentBlockSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }).loose(),
  z
    .object({
      type: z.literal('reasoning'),
      reasoning: z.string(),
      reasoningKind: z.enum(['planning', 'replanning', 'reasoning', 'action']).optional(),
      signature: z.string().optional(),
      redacted: z.boolean().optional(),
      data: z.string().optional(),
      provider: z.string().optional(),
      providerData: z.record(z.string(), z.unknown()).optional(),
    })
    .loose(),
  z
    .object({
      type: z.literal('tool_call'),
      id: z.string(),
      name: z.string(),
      args: z.record(z.string(), z.unknown()),
      rawArgs: z.string().optional(),
      argsError: z.string().optional(),
      signature: z.string().optional(),
    })
    .loose(),
  z
    .object({
      type: z.literal('tool_result'),
      toolCallId: z.string(),
      name: z.string(),
      output: z.unknown(),
      isError: z.boolean().optional(),
    })
    .loose(),
]);

const usageSchema = z
  .object({
    inputTokens: z.number(),
    outputTokens: z.number(),
    reasoningTokens: z.number().optional(),
    cachedTokens: z.number().optional(),
    cacheWriteTokens: z.number().optional(),
  })
  .loose();

/** A stored message: a role and its content blocks. */
export const messageSchema = z.object({ role: z.enum(['system', 'user', 'assistant', 'tool']), content: z.array(contentBlockSchema) });

/** Validates a stored event. Unknown extra fields are kept so newer minor writers stay readable. */
export const agentEventSchema = z
  .object({
    id: z.string().min(1),
    invocationId: z.string().min(1),
    author: z.string(),
    path: z.string(),
    branch: z.string().optional(),
    timestamp: z.number(),
    message: messageSchema.optional(),
    usage: usageSchema.optional(),
    partial: z.boolean().optional(),
    error: z.object({ name: z.string(), message: z.string(), data: z.unknown().optional() }).loose().optional(),
    actions: z
      .object({
        stateDelta: z.record(z.string(), z.unknown()).optional(),
        stateAppend: z.record(z.string(), z.array(z.unknown())).optional(),
        exitLoop: z.boolean().optional(),
        transferTo: z.string().optional(),
        interrupt: z
          .object({
            id: z.string(),
            reason: z.string(),
            payload: z.unknown(),
            toolCallId: z.string().optional(),
            toolName: z.string().optional(),
            path: z.string().optional(),
          })
          .loose()
          .optional(),
        resumeValues: z.record(z.string(), z.unknown()).optional(),
        agentState: z.record(z.string(), z.unknown()).optional(),
        final: z.object({ text: z.string(), structured: z.unknown().optional() }).loose().optional(),
        invocationEnd: z.object({ status: z.string(), output: z.string().optional() }).loose().optional(),
        compaction: z
          .object({ through: z.string(), summary: z.string(), tokensBefore: z.number(), tokensAfter: z.number() })
          .loose()
          .optional(),
      })
      .loose()
      .optional(),
    meta: z.record(z.string(), z.unknown()).optional(),
  })
  .loose();

/** Parses an unknown value as an event; throws a ZodError on mismatch. */
export function parseAgentEvent(value: unknown): AgentEvent {
  return agentEventSchema.parse(value) as unknown as AgentEvent;
}
