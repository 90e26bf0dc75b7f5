import { z } from 'zod';
import type { AgentEvent } from './agent-event.js';
import type { MediaBlock } from '../messages/content-block.js';
import { mediaProblem } from '../messages/media-check.js';

/** An image or file block: one source (`url`, base64 `data`, or a stored `blob` with its `size`), checked by `mediaProblem`. */
const mediaFields = {
  mediaType: z.string(),
  url: z.string().optional(),
  data: z.string().optional(),
  blob: z.string().optional(),
  size: z.number().optional(),
};
const checkMedia = (block: unknown, ctx: { addIssue: (issue: { code: 'custom'; message: string; input: unknown }) => void }) => {
  const problem = mediaProblem(block as MediaBlock);
  if (problem) ctx.addIssue({ code: 'custom', message: problem, input: block });
};
/** An image block as stored. */
export const imageBlockSchema = z
  .object({ type: z.literal('image'), ...mediaFields, detail: z.enum(['auto', 'low', 'high']).optional() })
  .loose()
  .superRefine(checkMedia);
/** A file block as stored. */
export const fileBlockSchema = z
  .object({ type: z.literal('file'), ...mediaFields, filename: z.string().optional() })
  .loose()
  .superRefine(checkMedia);

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
    .loose()
    .superRefine((block, ctx) => {
      // An output of content blocks (text, images, files): its media blocks are checked like a message's.
      if (!Array.isArray(block.output)) return;
      block.output.forEach((item: unknown, i) => {
        const type = (item as { type?: unknown } | null)?.type;
        if (type !== 'image' && type !== 'file') return;
        const problem = mediaProblem(item as MediaBlock);
        if (problem) ctx.addIssue({ code: 'custom', message: problem, input: item, path: ['output', i] });
      });
    }),
  imageBlockSchema,
  fileBlockSchema,
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
        final: z
          .object({
            text: z.string(),
            structured: z.unknown().optional(),
            partial: z.boolean().optional(),
            notRun: z.array(z.unknown()).optional(),
          })
          .loose()
          .optional(),
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
