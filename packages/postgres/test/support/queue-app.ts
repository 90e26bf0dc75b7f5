import { z } from 'zod';
import { ReActAgent, Runner, messageText, tool, toolResultsOf, type Message } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { PostgresSessionStore } from '@replan/postgres';

export const APP = 'queue-app';

/** Every `record` call the app's tool made, by idempotency key (repeats included). */
export type EffectLog = string[];

const userText = (messages: readonly Message[]) => messageText(messages.find((m) => m.role === 'user'));

/**
 * A ReAct app for queue tests: the model calls `record` `steps` times (one call per turn, ids
 * `r1`, `r2`, …), then answers `done: <input>`. An input starting with "approve" makes the tool
 * need approval. `latencyMs` per model call.
 */
export function queueApp(options: { connectionString: string; schema: string; effects: EffectLog; steps?: number; latencyMs?: number }) {
  const steps = options.steps ?? 2;
  const store = new PostgresSessionStore({ connectionString: options.connectionString, schema: options.schema, maxConnections: 4 });
  const record = tool({
    name: 'record',
    description: 'Records a step.',
    parameters: z.object({ n: z.number() }),
    needsApproval: (_args, ctx) => ctx.state.get('needsApproval') === true,
    execute: ({ n }, ctx) => {
      options.effects.push(ctx.idempotencyKey);
      return `recorded ${n}`;
    },
  });
  const model = new ScriptedModel({
    latencyMs: options.latencyMs ?? 0,
    respond: (request) => {
      const done = request.messages.flatMap((m) => toolResultsOf(m)).length;
      if (done < steps) return callTools({ name: 'record', args: { n: done + 1 }, id: `r${done + 1}` });
      return `done: ${userText(request.messages)}`;
    },
  });
  const runner = new Runner({ appName: APP, sessionStore: store, agent: new ReActAgent({ name: 'agent', model, tools: [record] }) });
  return { runner, store, model };
}
