/**
 * A plan–execute agent served as an MCP tool over stdio: what an MCP client (Claude Code, Cursor, …)
 * spawns. Offline: `scriptPlanExecute` plays the planner, executor and replanner. Its `publish` tool needs
 * approval, so a call stops to ask; sessions are files under the directory given as the first argument.
 * Run `pnpm build` in the repository first (the example imports the built packages). MCP client config, with
 * absolute paths (a client spawns the server from a directory of its own choosing):
 * { "command": "npx", "args": ["tsx", "/absolute/path/to/replan/examples/mcp-server/server.ts", "/absolute/path/to/sessions"] }
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { FileSessionStore, Runner, tool } from '@replan/core';
import { mcpServer } from '@replan/mcp';
import { createExecutor, createPlanExecuteAgent, createPlanner, createReplanner } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';

const lookup = tool({
  name: 'lookup',
  description: 'Looks up a figure',
  parameters: z.object({ topic: z.string() }),
  execute: ({ topic }) => `${topic}: 1.2 GW installed`,
});
const publish = tool({
  name: 'publish',
  description: 'Publishes a summary',
  parameters: z.object({ text: z.string() }),
  needsApproval: true,
  execute: ({ text }) => {
    console.error(`[server] published: ${text}`); // stderr: stdout carries MCP
    return 'published';
  },
});

// The planner, executor and replanner, scripted by who calls (never by prompt text).
const script = scriptPlanExecute({
  plan: { steps: ['Look up tidal power', 'Publish the summary'] },
  steps: {
    'Look up tidal power': { toolCalls: [{ name: 'lookup', args: { topic: 'tidal power' } }], text: 'Tidal power: 1.2 GW installed.' },
    'Publish the summary': { toolCalls: [{ name: 'publish', args: { text: 'Tidal power: 1.2 GW installed.' } }], text: 'Published.' },
  },
  replans: [{ steps: ['Publish the summary'] }],
  answer: 'Published: tidal power has 1.2 GW installed.',
});
const agent = createPlanExecuteAgent({
  name: 'researcher',
  description: 'Researches a topic and publishes a one-line summary (publishing asks for approval)',
  planner: createPlanner({ model: script.plannerModel }),
  executor: createExecutor({ model: script.executorModel, tools: [lookup, publish] }),
  replanner: createReplanner({ model: script.replannerModel }),
});

const dir = process.argv[2] ?? join(tmpdir(), 'replan-mcp-server');
const runner = new Runner({ agent, appName: 'mcp-example', sessionStore: new FileSessionStore({ dir }) });
await mcpServer({ runners: [runner] }).serveStdio();
