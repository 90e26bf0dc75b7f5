// The newest MCP and A2A SDKs on Node 24: the same plan–execute agent served over MCP (Streamable HTTP)
// and over A2A on 127.0.0.1, each called as the one tool of another plan–execute agent's executor
// (`mcpTools`, `a2aAgentTool`). Each outer run completes only if the served agent's answer came back.
import { type ChatModel, Runner, type Tool } from '@replan/core';
import { a2aAgentTool, a2aServer } from '@replan/a2a';
import { dbosRuns } from '@replan/dbos';
import { mcpServer, mcpTools } from '@replan/mcp';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { z } from 'zod';

type Outcome = { status: string; output: unknown; modelCalls: number };

const outerRun = async (model: ChatModel, remote: Tool): Promise<Outcome> => {
  const agent = createPlanExecuteAgent({ name: 'caller', model, tools: [remote] });
  const result = await new Runner({ agent, appName: 'current-majors-caller' }).run({ userId: 'u', input: 'Add 2 and 3.' }).result();
  return { status: result.status, output: result.output, modelCalls: result.modelCalls };
};

/** `served` over MCP as the tool `mcp_add` (parameters `{ a, b }`), called by another agent through `mcpTools`. */
export async function throughMcp(model: ChatModel, served: Runner): Promise<Outcome> {
  const token = 'current-majors-mcp-token';
  const parameters = z.object({ a: z.number(), b: z.number() });
  const endpoint = await mcpServer({
    runners: [{ runner: served, name: 'mcp_add', description: 'Adds two numbers (an agent).', parameters }],
  }).listen({
    token,
  });
  try {
    const toolset = await mcpTools({ url: endpoint.url, headers: { Authorization: `Bearer ${token}` } });
    try {
      return await outerRun(model, toolset.tools[0] as Tool);
    } finally {
      await toolset.close();
    }
  } finally {
    await endpoint.close();
  }
}

/** `served` over A2A, called by another agent as the tool `a2a_add` (`a2aAgentTool`). */
export async function throughA2a(model: ChatModel, served: Runner): Promise<Outcome> {
  const endpoint = await a2aServer({ runner: served }).listen();
  try {
    return await outerRun(model, a2aAgentTool(endpoint.url, { name: 'a2a_add', description: 'Adds two numbers (a remote agent).' }));
  } finally {
    await endpoint.close();
  }
}

/**
 * The SDKs' own declarations, as our packages load them: with `skipLibCheck` off TypeScript 7 checks each
 * of them too, not only our declarations (which do not name the SDKs' types).
 */
export type NewestSdks = [
  typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
  typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  typeof import('@a2a-js/sdk/server'),
  typeof import('@a2a-js/sdk/client'),
  typeof import('@dbos-inc/dbos-sdk'),
];

/** DBOS needs PostgreSQL to launch; here its runs are only built (the SDK is loaded by `launch`). */
export const dbosLaunches = (served: Runner): boolean => typeof dbosRuns({ runners: served }).launch === 'function';
