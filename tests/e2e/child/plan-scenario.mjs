// @ts-check
/**
 * A plan–execute agent whose scripted models answer as a function of the request alone (never
 * of the call count: a resumed process starts fresh models), with deterministic tool-call ids
 * (`s<step>t<turn>c<n>`), small latencies, and tools that record their side effects
 * idempotently by `ctx.idempotencyKey`.
 */
import { z } from 'zod';
import { systemMessage, toolResultsOf, tool, userMessage, stringifyToolOutput } from '@replan/core';
import { callTools } from '@replan/core/testing';
import { createExecutor, createPlanExecuteAgent, createPlanner, createReplanner } from '@replan/planexecute';
import { markedModels } from './marked-model.mjs';
import { payloadOf } from './request-payload.mjs';
import { recordTool } from './record-tool.mjs';

/**
 * @typedef {{ name: string, args: Record<string, unknown> }} Call
 * @typedef {{ input: string, steps: string[], turns: Record<string, Call[][]> }} Scenario
 */

/** @type {Record<'steps' | 'approval', Scenario>} */
export const LINEAR_SCENARIOS = {
  // Three steps: one tool call, two parallel calls, then two turns of calls.
  steps: {
    input: 'Record alpha, then beta and gamma, then a summary with an audit entry.',
    steps: ['record alpha', 'record beta and gamma', 'summarise'],
    turns: {
      'record alpha': [[{ name: 'record', args: { item: 'alpha', ms: 4 } }]],
      'record beta and gamma': [
        [
          { name: 'record', args: { item: 'beta', ms: 2 } },
          { name: 'record', args: { item: 'gamma', ms: 15 } },
        ],
      ],
      summarise: [[{ name: 'record', args: { item: 'summary', ms: 3 } }], [{ name: 'record', args: { item: 'audit', ms: 3 } }]],
    },
  },
  // The second step's tool needs a human's approval.
  approval: {
    input: 'Check the balance, then transfer 10 to bob.',
    steps: ['check the balance', 'transfer 10 to bob'],
    turns: {
      'check the balance': [[{ name: 'record', args: { item: 'balance', ms: 2 } }]],
      'transfer 10 to bob': [[{ name: 'transfer', args: { to: 'bob', amount: 10 } }]],
    },
  },
};

/**
 * @param {object} o
 * @param {Scenario} o.scenario
 * @param {number} o.latencyMs model latency
 * @param {(label: string) => void} o.mark
 * @param {ReturnType<typeof import('./effect-log.mjs').effectLog>} o.log
 */
export function buildAgent({ scenario, latencyMs, mark, log }) {
  const { steps, turns } = scenario;
  const attempt = log.attempt;

  const record = recordTool(mark, log);
  const transfer = tool({
    name: 'transfer',
    description: 'Sends money (needs a human to approve).',
    parameters: z.object({ to: z.string(), amount: z.number() }),
    needsApproval: true,
    execute({ to, amount }, ctx) {
      attempt({ kind: 'tool', tool: 'transfer', callId: ctx.toolCallId });
      mark(`tool:transfer:start ${ctx.toolCallId}`);
      log.applyOnce(ctx.idempotencyKey, { to, amount });
      mark(`tool:transfer:effect ${ctx.toolCallId}`);
      return `sent ${amount} to ${to}`;
    },
  });

  const model = markedModels(mark, attempt, latencyMs);

  const planner = createPlanner({
    model: model('planner', () => callTools({ name: 'plan', args: { steps }, id: 'plan-1' })),
    buildInput: ({ userInput }) => [systemMessage('planner'), ...userInput],
  });

  // One turn per assistant message so far: the scripted calls, then the step's answer quoting
  // the tool results it was given.
  const executor = createExecutor({
    model: model(
      'executor',
      (request) => {
        const { step } = payloadOf(request);
        const stepNo = steps.indexOf(step) + 1;
        const turn = request.messages.filter((m) => m.role === 'assistant').length;
        const script = turns[step] ?? [];
        if (turn < script.length)
          return callTools(...(script[turn] ?? []).map((c, i) => ({ ...c, id: `s${stepNo}t${turn + 1}c${i + 1}` })));
        const seen = request.messages.flatMap((m) => toolResultsOf(m)).map((r) => stringifyToolOutput(r.output));
        return `${step} -> ${seen.join('; ')}`;
      },
      (request) => payloadOf(request).step,
    ),
    tools: [record, transfer],
    buildInput: ({ step, executedSteps }) => [
      systemMessage('executor'),
      userMessage(JSON.stringify({ step, done: executedSteps.map((s) => s.result) })),
    ],
  });

  // Plans the steps not done yet, or answers with every step's result once all are done.
  const replanner = createReplanner({
    model: model('replanner', (request) => {
      const { done } = payloadOf(request);
      if (done.length >= steps.length) return callTools({ name: 'respond', args: { response: done.join(' | ') }, id: 'answer' });
      return callTools({ name: 'plan', args: { steps: steps.slice(done.length) }, id: `replan-${done.length}` });
    }),
    buildInput: ({ executedSteps }) => [
      systemMessage('replanner'),
      userMessage(JSON.stringify({ done: executedSteps.map((s) => s.result) })),
    ],
  });

  return createPlanExecuteAgent({ planner, executor, replanner, maxIterations: steps.length + 2 });
}
