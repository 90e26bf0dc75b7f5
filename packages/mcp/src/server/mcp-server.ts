import { randomBytes } from 'node:crypto';
import { ConfigurationError } from '@replan/core';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallServices } from './agent-call.js';
import { listenHttp } from './http-listener.js';
import { loadServerSdk } from './load-server-sdk.js';
import type { McpHttpEndpoint, McpHttpOptions, McpServerOptions } from './mcp-server-options.js';
import { sdkServer } from './sdk-server.js';
import { servedAgents } from './served-agent.js';

/** Agents served as MCP tools: connect it to stdio, or listen on HTTP. */
export interface ReplanMcpServer {
  /** The tool names, in order. */
  readonly tools: readonly string[];
  /** Serves over this process's stdin and stdout (an MCP client spawned the process). Resolves once connected. */
  serveStdio(): Promise<{ close(): Promise<void> }>;
  /** Serves over Streamable HTTP on 127.0.0.1 (by default), every request carrying the bearer token. */
  listen(options: McpHttpOptions): Promise<McpHttpEndpoint>;
}

const DEFAULT_MAX_INPUT_CHARS = 1_000_000;

/** How long a question may wait for the person by default (the SDK's one minute is too short for a person). */
const DEFAULT_ELICITATION_TIMEOUT_MS = 60 * 60 * 1000;

function elicitationTimeoutOf(value: number | undefined): number {
  if (value === undefined) return DEFAULT_ELICITATION_TIMEOUT_MS;
  if (!Number.isInteger(value) || value < 1)
    throw new ConfigurationError(`mcpServer: \`elicitationTimeoutMs\` must be a positive whole number of milliseconds (got ${value}).`);
  return value;
}

function maxInputCharsOf(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_INPUT_CHARS;
  if (!Number.isInteger(value) || value < 1)
    throw new ConfigurationError(`mcpServer: \`maxInputChars\` must be a positive whole number of characters (got ${value}).`);
  return value;
}

/**
 * Serves each runner's agent as an MCP tool taking `{ input }`. Each call runs in a new session of the
 * runner's store; progress notifications report finished plan steps; an interrupt is asked by MCP
 * elicitation when the client supports it, else the call returns an input-required result with a resume
 * token that a second call redeems, once, with the answer.
 */
export function mcpServer(options: McpServerOptions): ReplanMcpServer {
  const agents = servedAgents(options.runners);
  const info = {
    name: options.name ?? 'replan',
    version: options.version ?? '0.1.0',
    elicitationTimeoutMs: elicitationTimeoutOf(options.elicitationTimeoutMs),
  };
  const services: CallServices = {
    userId: options.userId ?? 'mcp',
    tokenSecret: options.tokenSecret ?? randomBytes(32).toString('base64url'),
    redeemed: new Set(),
    maxInputChars: maxInputCharsOf(options.maxInputChars),
  };
  return {
    tools: [...agents.keys()],
    serveStdio: async () => {
      const sdk = await loadServerSdk();
      const server: Server = sdkServer(sdk, info, agents, services);
      await server.connect(new sdk.StdioServerTransport());
      // The client is gone when stdin ends (the SDK transport does not notice): closing aborts the runs in
      // flight (resumable from the store), and nothing is left to keep the process alive.
      const onEnd = () => void server.close();
      process.stdin.once('end', onEnd);
      return {
        close: () => {
          process.stdin.off('end', onEnd);
          return server.close();
        },
      };
    },
    listen: async (http) => {
      if (typeof http.token !== 'string' || http.token.length < 16)
        throw new ConfigurationError(
          'mcpServer.listen: pass `token`, a secret of at least 16 characters that clients send as a bearer token.',
        );
      const sdk = await loadServerSdk();
      return listenHttp(sdk, () => sdkServer(sdk, info, agents, services), http);
    },
  };
}
