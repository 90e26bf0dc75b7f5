// @ts-check
/**
 * The `nested` scenario: a root agent calls a researcher agent as a tool (`agentTool`, a child
 * session); the researcher's `publish` tool needs approval. Models answer from the request (not
 * from a script position), so every process rebuilds the same agents and gets the same answers.
 */
import { z } from 'zod';
import { ReActAgent, agentTool, messageText, tool, toolResultsOf } from '@replan/core';
import { callTools } from '@replan/core/testing';
import { markedModels } from './marked-model.mjs';

export const NESTED_INPUT = 'Publish a post about tides.';

/** @param {import('./scenarios.mjs').BuildOptions} o */
export function buildNestedAgent({ latencyMs, mark, log }) {
  const model = markedModels(mark, log.attempt, latencyMs);
  const publish = tool({
    name: 'publish',
    description: 'Publishes a post (a side effect, made once per idempotency key).',
    parameters: z.object({ title: z.string() }),
    needsApproval: true,
    execute: ({ title }, ctx) => {
      log.attempt({ kind: 'tool', tool: 'publish', callId: ctx.toolCallId });
      mark(`tool:publish ${ctx.toolCallId}`);
      log.applyOnce(ctx.idempotencyKey, { title });
      return `published ${title}`;
    },
  });
  /** @param {import('@replan/core').ModelRequest} request */
  const lastResult = (request) => toolResultsOf(request.messages.at(-1))[0];
  const researcher = new ReActAgent({
    name: 'researcher',
    model: model('researcher', (request) => {
      const result = lastResult(request);
      return result ? `inner: ${String(result.output)}` : callTools({ name: 'publish', args: { title: 'Tides' }, id: 'a1' });
    }),
    tools: [publish],
  });
  return new ReActAgent({
    name: 'root',
    model: model('root', (request) => {
      const result = lastResult(request);
      return result
        ? `outer saw: ${String(result.output)}`
        : callTools({ name: 'research', args: { input: `research: ${messageText(request.messages.at(-1))}` }, id: 'o1' });
    }),
    tools: [agentTool(researcher, { name: 'research' })],
  });
}
