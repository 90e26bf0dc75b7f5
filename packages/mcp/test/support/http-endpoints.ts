import type { mcpServer } from '@replan/mcp';
import { afterEach } from 'vitest';
import { httpClient } from './mcp-client.js';
import type { McpHttpEndpoint } from '../../src/server/mcp-server-options.js';

/** The bearer token the HTTP tests serve with. */
export const token = 'test-token-0123456789abcdef';

/** What a call without elicitation returns when its run stops for a person. */
export type InputRequired = { inputRequired: { resumeToken: string; interrupts: { id: string; reason: string }[] } };

/** Servers listened on and clients connected in a test, all closed after it (newest first). */
export function useHttpEndpoints() {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const o of open.splice(0).reverse()) await o.close();
  });
  return {
    open,
    listen: async (server: ReturnType<typeof mcpServer>) => {
      const endpoint = await server.listen({ token });
      open.push(endpoint);
      return endpoint;
    },
    connect: async (endpoint: McpHttpEndpoint, onElicit?: Parameters<typeof httpClient>[2]) => {
      const client = await httpClient(endpoint.url, token, onElicit);
      open.push(client);
      return client;
    },
  };
}
