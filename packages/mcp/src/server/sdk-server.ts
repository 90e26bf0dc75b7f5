import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { type CallChannel, type CallServices, callAgent, callInputSchema } from './agent-call.js';
import { errorResult, outputSchemaOf } from './call-results.js';
import type { McpServerSdk } from './load-server-sdk.js';
import type { ServedAgent } from './served-agent.js';

/** The server's name and version, as the MCP handshake reports them. */
export interface ServerInfo {
  readonly name: string;
  readonly version: string;
  /** How long an elicited question waits for the person (ms). */
  readonly elicitationTimeoutMs: number;
}

/**
 * One SDK `Server` answering `tools/list` and `tools/call` for the served agents. A transport takes one
 * server, so HTTP makes one per MCP session; they share `services` (the token secret, redeemed tokens).
 */
export function sdkServer(sdk: McpServerSdk, info: ServerInfo, agents: ReadonlyMap<string, ServedAgent>, services: CallServices): Server {
  const server = new sdk.Server({ name: info.name, version: info.version }, { capabilities: { tools: {} } });
  server.setRequestHandler(sdk.ListToolsRequestSchema, () => ({
    tools: [...agents.values()].map((agent) => ({
      name: agent.name,
      description: agent.description,
      inputSchema: callInputSchema(agent),
      ...(agent.outputSchema ? { outputSchema: outputSchemaOf(agent.outputSchema) } : {}),
    })),
  }));
  server.setRequestHandler(sdk.CallToolRequestSchema, async (request, extra) => {
    const agent = agents.get(request.params.name);
    if (!agent) return errorResult(`There is no agent "${request.params.name}" here: call tools/list for the ones there are.`);
    const progressToken = request.params._meta?.progressToken;
    // The SDK reads an empty `elicitation: {}` (older clients) as form elicitation.
    const canElicit = server.getClientCapabilities()?.elicitation?.form !== undefined;
    const channel: CallChannel = {
      signal: extra.signal,
      progress: async (progress, message) => {
        if (progressToken === undefined) return;
        await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress, message } });
      },
      elicit: canElicit
        ? async (message, requestedSchema) => {
            const reply = await server.elicitInput(
              { mode: 'form', message, requestedSchema: requestedSchema as never },
              { relatedRequestId: extra.requestId, signal: extra.signal, timeout: info.elicitationTimeoutMs },
            );
            return { action: reply.action, ...(reply.content ? { content: reply.content as Record<string, unknown> } : {}) };
          }
        : undefined,
    };
    try {
      return await callAgent(agent, request.params.arguments ?? {}, channel, services);
    } catch (error) {
      return errorResult(`${agent.name} failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
    }
  });
  return server;
}
