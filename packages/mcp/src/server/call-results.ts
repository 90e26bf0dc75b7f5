import type { Interrupt, MediaBlock, RunResult } from '@replan/core';
import { guardrailBlockText } from '@replan/core/agent-kit';
import { mcpMediaItem } from './answer-media.js';

/** What a tool call returns (the SDK's `CallToolResult`, kept structural so that public types do not need the SDK). */
export interface AgentCallResult {
  readonly [key: string]: unknown;
  readonly content: ({ readonly type: 'text'; readonly text: string } | Record<string, unknown>)[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
}

/** An error result: the client's model reads `text`, which says what to do. */
export const errorResult = (text: string): AgentCallResult => ({ content: [{ type: 'text', text }], isError: true });

/** The answer of a finished run (its text, then its images and files), or why it did not finish. */
export function finishedResult(result: RunResult, structured: boolean, media: readonly MediaBlock[] = []): AgentCallResult {
  // The run's log keeps a blocked answer for audit; the caller gets the block, never the answer.
  if (result.status === 'blocked' && result.guardrail)
    return errorResult(
      `${guardrailBlockText(result.guardrail)}. The agent's answer is withheld: change the request, or ask the agent's owner.`,
    );
  if (result.status !== 'completed')
    return errorResult(`The agent stopped (${result.status})${result.error ? `: ${result.error.message}` : ''}.`);
  const text = result.output ?? '';
  if (structured && typeof result.structured === 'object' && result.structured !== null)
    return {
      content: [{ type: 'text', text: text || JSON.stringify(result.structured) }, ...media.map(mcpMediaItem)],
      structuredContent: result.structured as Record<string, unknown>,
    };
  return { content: [{ type: 'text', text }, ...media.map(mcpMediaItem)] };
}

/** A run waiting on input: the interrupts, and the token to pass back with the answer. */
export function inputRequiredResult(toolName: string, resumeToken: string, interrupts: readonly Interrupt[]): AgentCallResult {
  const asked = interrupts.map((i) => ({
    id: i.id,
    reason: i.reason,
    payload: i.payload ?? null,
    ...(i.toolName === undefined ? {} : { toolName: i.toolName }),
  }));
  const how =
    asked.length === 1
      ? '{ "resumeToken": <the token>, "answer": <your answer> }'
      : '{ "resumeToken": <the token>, "answers": { <interrupt id>: <answer>, ... } }';
  const text = `The agent needs input before it can go on: ${JSON.stringify(asked)}. Call "${toolName}" again with ${how}; an approval's answer is true, false or { "approved": boolean, "message"?: string }. Resume token: ${resumeToken}`;
  return { content: [{ type: 'text', text }], structuredContent: { inputRequired: { resumeToken, interrupts: asked } } };
}

/** The tool's output schema: the agent's structured answer, or a request for input. */
export function outputSchemaOf(agentSchema: Record<string, unknown>): Record<string, unknown> {
  const inputRequired = {
    type: 'object',
    properties: { inputRequired: { type: 'object', properties: { resumeToken: { type: 'string' }, interrupts: { type: 'array' } } } },
    required: ['inputRequired'],
  };
  return { type: 'object', anyOf: [agentSchema, inputRequired] };
}
