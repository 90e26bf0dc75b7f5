// Runners with scripted models, served by the mcpServer tests (in process, and by mcp-agent-server.ts over stdio).
import { InMemorySessionStore, ReActAgent, Runner, type SessionStore, tool } from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';
import { createExecutor, createPlanExecuteAgent, createPlanner, createReplanner } from '@replan/planexecute';
import { z } from 'zod';

/** A plan–execute agent with a two-step plan: one progress notification per step. */
export function plannerRunner(store: SessionStore = new InMemorySessionStore()): Runner {
  const add = tool({
    name: 'add',
    description: 'Adds',
    parameters: z.object({ a: z.number(), b: z.number() }),
    execute: ({ a, b }) => a + b,
  });
  const agent = createPlanExecuteAgent({
    name: 'planner_agent',
    planner: createPlanner({
      model: new ScriptedModel({ responses: [callTools({ name: 'plan', args: { steps: ['add 2 and 3', 'report'] } })] }),
    }),
    executor: createExecutor({
      model: new ScriptedModel({ responses: [callTools({ name: 'add', args: { a: 2, b: 3 } }), 'the sum is 5', 'reported'] }),
      tools: [add],
    }),
    replanner: createReplanner({
      model: new ScriptedModel({
        responses: [
          callTools({ name: 'plan', args: { steps: ['report'] } }),
          callTools({ name: 'respond', args: { response: 'The sum is 5.' } }),
        ],
      }),
    }),
  });
  return new Runner({ agent, appName: 'mcp-test', sessionStore: store });
}

/** Counts how often the approved tool really ran: an answer must resume the run exactly once. */
export interface Deployments {
  count: number;
}

/** A ReAct agent whose `deploy` tool needs approval. Its model calls the tool, then answers from the result. */
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
      const last = request.messages.at(-1);
      const result = last?.content.find((b) => b.type === 'tool_result');
      if (!result) return callTools({ name: 'deploy', args: { version: 'v2' } });
      return result.type === 'tool_result' && result.isError ? 'Not deployed.' : 'Deployed v2.';
    },
  });
  const agent = new ReActAgent({ name: 'deployer', description: 'Deploys versions, with approval', model, tools: [deploy] });
  return new Runner({ agent, appName: 'mcp-test', sessionStore: store });
}

/** What the blocking tool saw: started, then aborted. Only its first call blocks (a resumed run gets past it). */
export interface Blocking {
  started: () => void;
  aborted: boolean;
  calls: number;
}

/** A ReAct agent whose tool waits until the run is aborted (cancellation). */
export function blockingRunner(blocking: Blocking, store: SessionStore = new InMemorySessionStore()): Runner {
  const wait = tool({
    name: 'wait',
    description: 'Waits',
    parameters: z.object({}),
    execute: (_args, ctx) =>
      new Promise<string>((resolve, reject) => {
        blocking.calls += 1;
        if (blocking.calls > 1) return resolve('done');
        blocking.started();
        ctx.signal.addEventListener('abort', () => {
          blocking.aborted = true;
          reject(ctx.signal.reason);
        });
      }),
  });
  const model = new ScriptedModel({ responses: [callTools({ name: 'wait', args: {} }), 'waited'] });
  return new Runner({
    agent: new ReActAgent({ name: 'waiter', description: 'Waits', model, tools: [wait] }),
    appName: 'mcp-test',
    sessionStore: store,
  });
}

/** The schema of the structured agent's answer. */
export const sumSchema = z.object({ sum: z.number() });

/** A ReAct agent with an output schema. */
export function structuredRunner(): Runner {
  const agent = new ReActAgent({
    name: 'summer',
    description: 'Adds',
    model: new ScriptedModel({ responses: ['{"sum":5}'] }),
    outputSchema: sumSchema,
  });
  return new Runner({ agent, appName: 'mcp-test' });
}

/** A gate the `fetch_report` tool waits on: the test opens it once the client has gone. */
export interface Gate {
  started: () => void;
  open: Promise<void>;
  /** Whether the tool saw its run aborted while it waited. */
  aborted: boolean;
}

/** A plan–execute agent whose first step waits on `gate` (a slow tool), then reports; the answer is "Report: ready.". */
export function gatedPlannerRunner(gate: Gate, store: SessionStore = new InMemorySessionStore()): Runner {
  const fetchReport = tool({
    name: 'fetch_report',
    description: 'Fetches the report (slow)',
    parameters: z.object({}),
    execute: async (_args, ctx) => {
      ctx.signal.addEventListener('abort', () => {
        gate.aborted = true;
      });
      gate.started();
      await gate.open;
      ctx.signal.throwIfAborted();
      return 'ready';
    },
  });
  const agent = createPlanExecuteAgent({
    name: 'reporter',
    planner: createPlanner({
      model: new ScriptedModel({ responses: [callTools({ name: 'plan', args: { steps: ['fetch the report', 'summarise it'] } })] }),
    }),
    executor: createExecutor({
      model: new ScriptedModel({ responses: [callTools({ name: 'fetch_report', args: {} }), 'the report is ready', 'summarised'] }),
      tools: [fetchReport],
    }),
    replanner: createReplanner({
      model: new ScriptedModel({
        responses: [
          callTools({ name: 'plan', args: { steps: ['summarise it'] } }),
          callTools({ name: 'respond', args: { response: 'Report: ready.' } }),
        ],
      }),
    }),
  });
  return new Runner({ agent, appName: 'mcp-test', sessionStore: store });
}

/** A ReAct agent that fetches the report (waiting on `gate`), then deploys it, which needs approval. */
export function gatedApprovalRunner(gate: Gate, deployments: Deployments, store: SessionStore = new InMemorySessionStore()): Runner {
  const fetchReport = tool({
    name: 'fetch_report',
    description: 'Fetches the report (slow)',
    parameters: z.object({}),
    execute: async () => {
      gate.started();
      await gate.open;
      return 'ready';
    },
  });
  const deploy = tool({
    name: 'deploy',
    description: 'Deploys the report',
    parameters: z.object({}),
    needsApproval: true,
    execute: () => {
      deployments.count += 1;
      return 'deployed';
    },
  });
  const model = new ScriptedModel({
    respond: (request) => {
      const results = request.messages.flatMap((m) => m.content).filter((b) => b.type === 'tool_result');
      if (results.length === 0) return callTools({ name: 'fetch_report', args: {} });
      if (results.length === 1) return callTools({ name: 'deploy', args: {} });
      return 'Report deployed.';
    },
  });
  const agent = new ReActAgent({ name: 'publisher', description: 'Fetches and deploys a report', model, tools: [fetchReport, deploy] });
  return new Runner({ agent, appName: 'mcp-test', sessionStore: store });
}
