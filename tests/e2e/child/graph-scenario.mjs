// @ts-check
/**
 * A graph-mode plan–execute agent (`mode: 'graph'`, two steps at once): a diamond of five steps
 * whose waves overlap — a ∥ b, then c (after a) while b's long tool still runs, then d (after a
 * and b) while c runs, then e (after c and d). Like the linear scenarios, the scripted models
 * answer from the request alone, tool-call ids are `<step>-t<turn>c<n>`, and each tool records its
 * side effect once per idempotency key.
 */
import { stringifyToolOutput, systemMessage, toolResultsOf, userMessage } from '@replan/core';
import { QUOTE_BEGIN, QUOTE_END } from '@replan/core/agent-kit';
import { callTools } from '@replan/core/testing';
import { createExecutor, createPlanExecuteAgent, createPlanner, createReplanner } from '@replan/planexecute';
import { markedModels } from './marked-model.mjs';
import { payloadOf } from './request-payload.mjs';
import { recordTool } from './record-tool.mjs';

/** @typedef {{ item: string, ms: number, after?: string }} RecordArgs */

/** A task with the quote markers around its inserted results taken out. */
const unquoted = (/** @type {string} */ task) => task.replaceAll(QUOTE_BEGIN, '').replaceAll(QUOTE_END, '');

/** The plan, and each step's tool calls per turn (the `record` tool, with how long it takes). */
export const GRAPH = {
  input: 'Record alpha and beta at once, gamma from alpha, delta from alpha and beta, then a report.',
  steps: [
    { id: 'a', task: 'record alpha', dependsOn: [] },
    { id: 'b', task: 'record beta and its echo', dependsOn: [] },
    { id: 'c', task: 'record gamma from $a', dependsOn: ['a'] },
    { id: 'd', task: 'record delta from $a and ${b}', dependsOn: ['a', 'b'] },
    { id: 'e', task: 'report on c and d', dependsOn: ['c', 'd'] },
  ],
  /** @type {Record<string, RecordArgs[][]>} */
  turns: {
    a: [[{ item: 'alpha', ms: 5 }]],
    b: [
      [
        // The long call ends after the short one, as its 60 ms say, also when a loaded machine
        // starts the short one late (the step's answer lists the results in that order).
        { item: 'beta', ms: 60, after: 'beta-echo' },
        { item: 'beta-echo', ms: 3 },
      ],
    ],
    c: [[{ item: 'gamma', ms: 30 }], [{ item: 'gamma-check', ms: 30 }]],
    d: [[{ item: 'delta', ms: 10 }]],
    e: [[{ item: 'report', ms: 2 }]],
  },
  stepConcurrency: 2,
};

/**
 * @param {object} o
 * @param {number} o.latencyMs model latency
 * @param {(label: string) => void} o.mark
 * @param {ReturnType<typeof import('./effect-log.mjs').effectLog>} o.log
 * @param {number} [o.toolMs] added to every tool call's own time (default 0)
 */
export function buildGraphAgent({ latencyMs, mark, log, toolMs = 0 }) {
  const model = markedModels(mark, log.attempt, latencyMs);

  const planner = createPlanner({
    model: model('planner', () => callTools({ name: 'plan', args: { steps: GRAPH.steps }, id: 'plan-1' })),
    buildInput: ({ userInput }) => [systemMessage('graph planner'), ...userInput],
  });

  // One turn per assistant message of the step so far: its scripted calls, then its answer
  // quoting the task (with the results it references) and the tool results it was given.
  const executor = createExecutor({
    tools: [recordTool(mark, log, toolMs)],
    model: model(
      'executor',
      (request) => {
        const { id, task } = payloadOf(request);
        const turn = request.messages.filter((m) => m.role === 'assistant').length;
        const script = GRAPH.turns[id] ?? [];
        if (turn < script.length)
          return callTools(...(script[turn] ?? []).map((args, i) => ({ name: 'record', args, id: `${id}-t${turn + 1}c${i + 1}` })));
        const seen = request.messages.flatMap((m) => toolResultsOf(m)).map((r) => stringifyToolOutput(r.output));
        return `${task} => ${seen.join('; ')}`;
      },
      (request) => payloadOf(request).id,
    ),
    // `task` has the `$id` results quoted inline; the scripted answers quote it without the markers.
    buildGraphInput: ({ step, task, context }) => [
      systemMessage('graph step'),
      userMessage(JSON.stringify({ id: step.id, task: unquoted(task), results: context.items.map((i) => `${i.label} ${i.result}`) })),
    ],
  });

  // Answers with every step's result, by id, once all are done; asks again for what is missing otherwise.
  const replanner = createReplanner({
    model: model('replanner', (request) => {
      const { done, missing } = payloadOf(request);
      if (missing.length) return callTools({ name: 'plan', args: { steps: missing }, id: `replan-${done.length}` });
      return callTools({ name: 'respond', args: { response: done.join(' | ') }, id: 'answer' });
    }),
    buildGraphInput: ({ steps, executedSteps }) => {
      const finished = new Set(executedSteps.filter((s) => s.error === undefined).map((s) => s.id));
      const done = executedSteps
        .filter((s) => s.error === undefined)
        .map((s) => `${s.id}: ${s.result}`)
        .sort();
      const missing = steps.filter((s) => !finished.has(s.id));
      return [systemMessage('graph replanner'), userMessage(JSON.stringify({ done, missing }))];
    },
  });

  return createPlanExecuteAgent({ mode: 'graph', stepConcurrency: GRAPH.stepConcurrency, planner, executor, replanner, maxIterations: 3 });
}
