import type { ChatModel, ModelRequest, ModelResponse } from '@replan/core';
import type { ModelStreamPart } from '@replan/core/agent-kit';
import { userMessage } from '@replan/core';
import { expect } from 'vitest';
import type { FakeServer, Reply } from './fake-server.js';

export async function collect(
  model: ChatModel,
  req: ModelRequest,
  signal?: AbortSignal,
): Promise<{ parts: ModelStreamPart[]; response: ModelResponse }> {
  const parts: ModelStreamPart[] = [];
  for await (const part of model.stream(req, signal ? { signal } : undefined)) parts.push(part);
  const last = parts.at(-1);
  if (last?.type !== 'finish') throw new Error('stream did not end with a finish part');
  return { parts, response: last.response };
}

/** Runs the same content streamed and not streamed; asserts both give the same response. */
export async function bothWays(
  server: FakeServer,
  model: ChatModel,
  replies: { sse: Reply; json: Reply },
  req: ModelRequest = { messages: [userMessage('hi')] },
): Promise<{ streamed: ModelResponse; generated: ModelResponse; parts: ModelStreamPart[] }> {
  server.reply(replies.sse, replies.json);
  const { parts, response: streamed } = await collect(model, req);
  const generated = await model.generate(req);
  expect(streamed).toEqual(generated);
  return { streamed, generated, parts };
}

export const textDeltas = (parts: readonly ModelStreamPart[], type: 'text-delta' | 'reasoning-delta') =>
  parts
    .filter((p) => p.type === type)
    .map((p) => (p as { delta: string }).delta)
    .join('');
