import { McpError } from './mcp-errors.js';
import { describeServer, type McpServer } from './mcp-server-config.js';

/** What bounds connecting: `mcpTools`' options, or those of a call that has to reconnect first. */
export interface ConnectBound {
  readonly timeoutMs?: number | undefined;
  readonly signal?: AbortSignal | undefined;
  /** The call waiting on a reconnection (its session is shared, so it goes on); absent for `mcpTools` itself. */
  readonly call?: string;
}

/**
 * `work` (connecting, reading the tool list), rejected with an `McpError` of kind `timeout` after `timeoutMs` or
 * `aborted` when `signal` aborts, whichever comes first. It does not stop `work`: the caller
 * ends the connection it abandons.
 */
export function withinBound<T>(work: Promise<T>, bound: ConnectBound, server: McpServer): Promise<T> {
  const { timeoutMs, signal } = bound;
  if (timeoutMs === undefined && !signal) return work;
  work.catch(() => undefined); // abandoned work may fail later: nobody awaits it then
  return new Promise<T>((resolve, reject) => {
    const timer =
      timeoutMs === undefined ? undefined : setTimeout(() => settle(() => reject(timedOut(server, timeoutMs, bound.call))), timeoutMs);
    const onAbort = () => settle(() => reject(aborted(server, signal?.reason, bound.call)));
    const settle = (then: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      then();
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(error)),
    );
  });
}

const ending = (server: McpServer, call: string | undefined) =>
  call !== undefined ? `, so "${call}" was not sent` : 'stdio' in server ? '; its process is being ended' : '';

export const timedOut = (server: McpServer, timeoutMs: number, call?: string) =>
  new McpError(
    'timeout',
    `the MCP server ${describeServer(server)} did not finish connecting (start, initialize, tools/list) within ${timeoutMs} ms${ending(server, call)}. Check that it starts and answers (a stdio server must speak MCP on its stdout: one that waits for input, or logs to stdout, never answers), or raise connectTimeoutMs (timeoutMs when it is not set).`,
    { timeoutMs },
  );

export const aborted = (server: McpServer, reason: unknown, call?: string) =>
  new McpError(
    'aborted',
    call !== undefined
      ? `the call of "${call}" was aborted while it waited for the MCP server ${describeServer(server)} to reconnect; it was not sent.`
      : `connecting to the MCP server ${describeServer(server)} was aborted by the signal given to mcpTools${ending(server, call)}. Call mcpTools again to connect.`,
    { cause: reason },
  );
