import { z } from 'zod';
import { InMemorySessionStore, messageText, Runner, tool, type ModelRequest, type RunObserver, type SessionStore } from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';
import { createExecutor, createPlanExecuteAgent, createPlanner, createReplanner } from '@replan/planexecute';

const graphCall = (...steps: [string, string, string[]][]) =>
  callTools({ name: 'plan', args: { steps: steps.map(([id, task, dependsOn]) => ({ id, task, dependsOn })) } });
const respondCall = (response: string) => callTools({ name: 'respond', args: { response } });

const fetchPage = tool({
  name: 'fetch_page',
  description: 'fetches a page',
  parameters: z.object({ url: z.string() }),
  execute: () => {
    throw new Error('connection refused');
  },
});
const sendMail = tool({
  name: 'send_mail',
  description: 'sends mail',
  parameters: z.object({ to: z.string() }),
  needsApproval: true,
  execute: ({ to }) => `sent to ${to}`,
});

/** The step a request is for, and whether its tool already answered. */
function stepReply(request: ModelRequest) {
  const text = messageText(request.messages.findLast((m) => m.role === 'user')).split('## YOUR TASK\n')[1] ?? '';
  const answered = request.messages.at(-1)?.role === 'tool';
  if (text.includes('task a')) return answered ? 'A done' : callTools({ name: 'fetch_page', args: { url: 'https://example.test' } });
  if (text.includes('task b')) return answered ? 'B done' : callTools({ name: 'send_mail', args: { to: 'ops@example.test' } });
  return 'D done';
}

/**
 * A graph-mode plan–execute agent: steps `a` (a failing tool) and `b` (a tool needing approval) run
 * in parallel; the replanner adds step `d`, then answers. Models report fixed usage per call.
 */
export function planExecuteScenario() {
  const usage = { inputTokens: 100, outputTokens: 20, cachedTokens: 40, cacheWriteTokens: 10 };
  const planner = new ScriptedModel({ id: 'planner-model', responses: [graphCall(['a', 'task a', []], ['b', 'task b', []])], usage });
  const steps = new ScriptedModel({ id: 'step-model', respond: stepReply, latencyMs: 15, usage });
  const replanner = new ScriptedModel({
    id: 'replanner-model',
    responses: [graphCall(['d', 'task d', ['a']]), respondCall('all done')],
    usage,
  });
  const agent = createPlanExecuteAgent({
    mode: 'graph',
    planner: createPlanner({ model: planner }),
    executor: createExecutor({ model: steps, tools: [fetchPage, sendMail] }),
    replanner: createReplanner({ model: replanner }),
  });
  const runner = (observers: RunObserver[], store: SessionStore = new InMemorySessionStore(), onObserverError?: (error: unknown) => void) =>
    new Runner({
      agent,
      appName: 'otel-test',
      sessionStore: store,
      observers,
      prices: { 'step-model': { inputPerMillion: 1_000, outputPerMillion: 4_000 } },
      ...(onObserverError ? { onObserverError } : {}),
    });
  return { runner };
}
