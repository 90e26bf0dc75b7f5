import type { AgentCard } from '@a2a-js/sdk';
import { ConfigurationError, type Runner } from '@replan/core';
import { agentCard } from './agent-card.js';
import type { A2aCardOptions, ServedCard } from './card-options.js';
import { listenHttp } from './http-listener.js';
import { loadServerSdk } from './load-server-sdk.js';
import { ReplanTaskHandler } from './task-handler.js';

/** What `a2aServer` serves, and as whom. (No SDK types here: an app type-checks without the peer installed.) */
export interface A2aServerOptions {
  /** The agent to serve; its store holds the tasks (use a file or PostgreSQL store for tasks that outlive the process). */
  readonly runner: Runner;
  /** What the agent card says (defaults: the agent's name and description, one skill). */
  readonly card?: A2aCardOptions;
  /** The user id the sessions are stored under (default `a2a`). */
  readonly userId?: string;
  /** The longest task input in characters (default 1,000,000); a longer one is an invalid-params error. */
  readonly maxInputChars?: number;
}

/** Where and how the HTTP endpoint listens. */
export interface A2aListenOptions {
  /** Default `127.0.0.1` (loopback only). Bind another address only behind your own TLS and network rules, and with a `token`. */
  readonly host?: string;
  /** Default 0 (a free port: read it from `url`). */
  readonly port?: number;
  /** The JSON-RPC path (default `/`). The agent card is always at `/.well-known/agent-card.json`. */
  readonly path?: string;
  /** When set, every JSON-RPC request must carry `Authorization: Bearer <token>` (the agent card stays public). At least 16 characters. */
  readonly token?: string;
  /** More Host header values to accept (`name:port`), e.g. behind a reverse proxy. */
  readonly allowedHosts?: readonly string[];
  /** Origin header values to accept (browsers send one); other origins are refused. Default: none. */
  readonly allowedOrigins?: readonly string[];
  /** The largest request body in bytes (default 1 MiB); a larger one is answered 413. */
  readonly maxBodyBytes?: number;
}

/** A listening A2A endpoint. */
export interface A2aEndpoint {
  /** The agent's base URL, e.g. `http://127.0.0.1:54321`: give it to `a2aAgentTool` or an A2A client. */
  readonly url: string;
  /** What the agent card says (the whole card is at `<url>/.well-known/agent-card.json`). */
  readonly card: ServedCard;
  /** Stops listening; runs in progress are aborted and stay resumable (`tasks/resubscribe` continues them). */
  close(): Promise<void>;
}

/** A replan agent as an A2A agent. */
export interface ReplanA2aServer {
  /** Serves JSON-RPC and the agent card over HTTP. */
  listen(options?: A2aListenOptions): Promise<A2aEndpoint>;
}

const DEFAULT_MAX_BODY = 1024 * 1024;
const DEFAULT_MAX_INPUT = 1_000_000;

/**
 * Serves a runner's agent as an A2A agent (JSON-RPC, with streaming). A task is a session of the
 * runner's store (task id = session id; the context id groups a user's tasks); status and artifact
 * updates (the plan, each finished step, the answer) stream from the run; an interrupt makes the task
 * `input-required` and the client's next message on it answers it, once; `tasks/cancel` aborts the run;
 * `tasks/resubscribe` replays the task from the log and follows it, continuing a run that a restart cut off.
 */
export function a2aServer(options: A2aServerOptions): ReplanA2aServer {
  if (!options?.runner) throw new ConfigurationError('a2aServer: pass `runner`, the Runner of the agent to serve.');
  const { runner } = options;
  return {
    listen: async (http = {}) => {
      if (http.token !== undefined && (typeof http.token !== 'string' || http.token.length < 16))
        throw new ConfigurationError('a2aServer.listen: `token` must be a secret of at least 16 characters (or leave it out on loopback).');
      const sdk = await loadServerSdk();
      let card: AgentCard | undefined;
      const handler = new ReplanTaskHandler({
        runner,
        userId: options.userId ?? 'a2a',
        maxInputChars: options.maxInputChars ?? DEFAULT_MAX_INPUT,
        card: () => card as AgentCard,
        errors: sdk.errors,
      });
      const endpoint = await listenHttp(
        sdk,
        handler,
        (rpcUrl) => {
          card = agentCard(runner.agent, options.card ?? {}, rpcUrl, http.token !== undefined);
          return card;
        },
        {
          host: http.host ?? '127.0.0.1',
          port: http.port ?? 0,
          path: http.path ?? '/',
          token: http.token,
          allowedHosts: http.allowedHosts ?? [],
          allowedOrigins: http.allowedOrigins ?? [],
          maxBodyBytes: http.maxBodyBytes ?? DEFAULT_MAX_BODY,
        },
      );
      const { name, description, version, skills } = endpoint.card;
      const served: ServedCard = {
        name,
        description,
        version,
        skills: skills.map((s) => ({ id: s.id, name: s.name, description: s.description, tags: s.tags, examples: s.examples })),
      };
      return { url: endpoint.url.replace(/\/$/, ''), card: served, close: endpoint.close };
    },
  };
}
