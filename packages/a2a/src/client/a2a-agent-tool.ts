import type { Client } from '@a2a-js/sdk/client';
import { agentTool, ConfigurationError, type Tool } from '@replan/core';
import { loadClientSdk } from './load-client-sdk.js';
import { RemoteA2aAgent } from './remote-agent.js';

/** How to reach the remote agent, and what the calling model reads about it. */
export interface A2aAgentToolOptions {
  /** The tool's name: 1-64 letters, digits, `_` or `-`. */
  readonly name: string;
  /** What the calling model reads about the tool (default: "The A2A agent at <url>."). */
  readonly description?: string;
  /** Sent as `Authorization: Bearer <token>` with every request. */
  readonly token?: string;
  /** The fetch to use (default: the global one), e.g. one that adds your own headers. */
  readonly fetch?: typeof fetch;
}

/**
 * A remote A2A agent as a replan tool taking `{ input }`. Each call is a remote task, run in a child
 * session of the caller's store (like `agentTool`). When the remote task asks for input, the local
 * run stops on a durable interrupt (an approval stays an approval); answering it with `runner.resume`
 * forwards the answer to the remote task exactly once — a crash between the answer and the forward
 * is recovered from the child session's log and the remote task's state — and the call goes on.
 */
export function a2aAgentTool(url: string, options: A2aAgentToolOptions): Tool<{ input: string }, unknown> {
  if (typeof url !== 'string' || !/^https?:\/\//.test(url))
    throw new ConfigurationError('a2aAgentTool: pass the agent\'s base URL, e.g. "http://127.0.0.1:4000".');
  if (!options?.name) throw new ConfigurationError('a2aAgentTool: pass `name`, the tool name the calling model uses.');
  const description = options.description ?? `The A2A agent at ${url}.`;
  let client: Promise<Client> | undefined;
  const connect = () => {
    client ??= openClient(url, options).catch((error: unknown) => {
      client = undefined;
      throw error;
    });
    return client;
  };
  return agentTool(new RemoteA2aAgent(options.name, description, url, connect), { name: options.name, description }) as Tool<
    { input: string },
    unknown
  >;
}

async function openClient(url: string, options: A2aAgentToolOptions): Promise<Client> {
  const sdk = await loadClientSdk();
  const base = options.fetch ?? fetch;
  const fetchImpl: typeof fetch =
    options.token === undefined
      ? base
      : (input, init) => {
          const headers = new Headers(init?.headers);
          headers.set('authorization', `Bearer ${options.token}`);
          return base(input, { ...init, headers });
        };
  const factory = new sdk.ClientFactory(
    sdk.ClientFactoryOptions.createFrom(sdk.ClientFactoryOptions.default, {
      transports: [new sdk.JsonRpcTransportFactory({ fetchImpl }), new sdk.RestTransportFactory({ fetchImpl })],
      cardResolver: new sdk.DefaultAgentCardResolver({ fetchImpl: base }),
    }),
  );
  return factory.createFromUrl(url.replace(/\/$/, ''));
}
