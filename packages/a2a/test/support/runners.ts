// Runners with scripted models, served by the a2aServer tests (in process, and by a2a-agent-server.ts in a child process).
import { InMemorySessionStore, ReActAgent, Runner, type SessionStore, tool } from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';
import { z } from 'zod';

/** A plan–execute agent with a two-step plan and a final answer. */
export function plannerRunner(store: SessionStore = new InMemorySessionStore()): Runner {
  const scripted = scriptPlanExecute({
    plan: { steps: ['look up the sum', 'report it'] },
    steps: { 'look up the sum': 'the sum is 5', 'report it': 'reported' },
    replans: [{ steps: ['report it'] }],
    answer: 'The sum is 5.',
  });
  const agent = createPlanExecuteAgent({ name: 'sums', description: 'Adds numbers, with a plan', model: scripted.model });
  return new Runner({ agent, appName: 'a2a-test', sessionStore: store });
}

/** Counts how often the approved tool really ran: an answer must resume the run exactly once. */
export interface Deployments {
  count: number;
}

/** A ReAct agent whose `deploy` tool needs approval. */
export function approvalRunner(deployments: Deployments, store: SessionStore = new InMemorySessionStore()): Runner {
  const deploy = tool({
    name: 'deploy',
    description: 'Deploys a version',
    parameters: z.object({ version: z.string() }),
    needsApproval: true,
    execute: ({ version }) => {
      deployments.count += 1;
      return `deployed ${version}`;
    },
  });
  const model = new ScriptedModel({
    respond: (request) => {
      const result = request.messages.at(-1)?.content.find((b) => b.type === 'tool_result');
      if (!result) return callTools({ name: 'deploy', args: { version: 'v2' } });
      return result.type === 'tool_result' && result.isError ? 'Not deployed.' : 'Deployed v2.';
    },
  });
  const agent = new ReActAgent({ name: 'deployer', description: 'Deploys versions, with approval', model, tools: [deploy] });
  return new Runner({ agent, appName: 'a2a-test', sessionStore: store });
}

/** What the blocking tool saw. Only its first call blocks (a resumed run gets past it). */
export interface Blocking {
  started: () => void;
  release?: () => void;
  aborted: boolean;
  calls: number;
}

/** A ReAct agent whose tool waits until the run is aborted (or `release` is called). */
export function blockingRunner(blocking: Blocking, store: SessionStore = new InMemorySessionStore()): Runner {
  const wait = tool({
    name: 'wait',
    description: 'Waits',
    parameters: z.object({}),
    execute: (_args, ctx) =>
      new Promise<string>((resolve, reject) => {
        blocking.calls += 1;
        if (blocking.calls > 1) return resolve('waited');
        blocking.release = () => resolve('released');
        ctx.signal.addEventListener('abort', () => {
          blocking.aborted = true;
          reject(ctx.signal.reason);
        });
        blocking.started();
      }),
  });
  const model = new ScriptedModel({
    respond: (request) =>
      request.messages.at(-1)?.content.some((b) => b.type === 'tool_result') ? 'Done waiting.' : callTools({ name: 'wait', args: {} }),
  });
  const agent = new ReActAgent({ name: 'waiter', description: 'Waits', model, tools: [wait] });
  return new Runner({ agent, appName: 'a2a-test', sessionStore: store });
}

/** A blocking tool's record, and a promise that resolves once the tool has started. */
export function blockingTool(): { blocking: Blocking; running: Promise<void> } {
  let started!: () => void;
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });
  return { blocking: { started, aborted: false, calls: 0 }, running };
}
