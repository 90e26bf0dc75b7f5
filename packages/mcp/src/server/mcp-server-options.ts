import type { Runner } from '@replan/core';
import type { ServedAgentOptions } from './served-agent.js';

/** What `mcpServer` serves, and as whom. (No SDK types here: an app type-checks without the optional peer.) */
export interface McpServerOptions {
  /** The agents to serve, one MCP tool each: a runner, or a runner with the tool's name, description and output schema. */
  readonly runners: readonly (Runner | ServedAgentOptions)[];
  /** The user id the sessions are stored under (default `mcp`). */
  readonly userId?: string;
  /** The server's name in the MCP handshake (default `replan`). */
  readonly name?: string;
  /** The server's version in the MCP handshake (default `0.1.0`). */
  readonly version?: string;
  /**
   * The secret that signs resume tokens. Default: random per `mcpServer` call, so tokens die with the
   * process; pass a stable secret (from your secret store) for tokens that survive a restart.
   */
  readonly tokenSecret?: string;
  /**
   * The longest task a call may pass, in characters (default 1,000,000): `input`, or the declared parameters
   * as JSON. A longer one is an error result, and no session is created.
   */
  readonly maxInputChars?: number;
  /**
   * How long a question asked by elicitation waits for the person, in ms (default one hour). Past it
   * the call ends with an input-required result and a resume token: the question stays open.
   */
  readonly elicitationTimeoutMs?: number;
}

/** Where and how the HTTP endpoint listens. */
export interface McpHttpOptions {
  /** The bearer token every request must carry (`Authorization: Bearer <token>`). Required. */
  readonly token: string;
  /** Default `127.0.0.1` (loopback only). Bind another address only behind your own TLS and network rules. */
  readonly host?: string;
  /** Default 0 (a free port: read it from `url`). */
  readonly port?: number;
  /** The path of the MCP endpoint (default `/mcp`). */
  readonly path?: string;
  /** More Host header values to accept (`name:port`), e.g. behind a reverse proxy. */
  readonly allowedHosts?: readonly string[];
  /** Origin header values to accept (browsers send one); other origins are refused. Default: none. */
  readonly allowedOrigins?: readonly string[];
  /** The largest request body in bytes (default 1 MiB); a larger one is answered 413. */
  readonly maxBodyBytes?: number;
}

/** A listening HTTP endpoint. */
export interface McpHttpEndpoint {
  /** The endpoint's URL, e.g. `http://127.0.0.1:54321/mcp`. */
  readonly url: string;
  /** Stops listening and closes every MCP session (runs in progress are aborted; they stay resumable). */
  close(): Promise<void>;
}
