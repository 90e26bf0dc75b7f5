import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpSdk } from './load-mcp-sdk.js';
import { withinBound } from './mcp-connect-bound.js';
import { McpError } from './mcp-errors.js';
import { DEFAULT_MAX_MESSAGE_BYTES, TOO_LARGE_CODE, type TooLargeData } from './mcp-message-reader.js';
import type { McpCallResult } from './mcp-result.js';
import { describeServer, type McpServer, type McpToolInfo } from './mcp-server-config.js';
import { boundedStdioTransport } from './mcp-stdio-transport.js';

interface Live {
  readonly client: Client;
  readonly pid: number | undefined;
  dropped: boolean;
}

const CLIENT_INFO = { name: 'replan', version: '0.1.0' };

/**
 * One MCP session at a time, opened again after the server dropped the last one. A call that was
 * under way when the session dropped is never sent again: it may have run.
 */
export class McpConnection {
  private current: Live | undefined;
  private opening: Promise<Live> | undefined;
  /** The client of the session being opened, so close() can end it (and its process) before it answers. */
  private connecting: Client | undefined;
  private opened = false;
  private closed = false;
  private lastPid: number | undefined;

  constructor(
    private readonly sdk: McpSdk,
    private readonly server: McpServer,
    private readonly events: { onToolsChanged(): void; onReconnected(): void },
  ) {}

  /** The pid of the stdio server process now running, if any. */
  get pid(): number | undefined {
    return this.lastPid;
  }

  /** The server's name from its `initialize` answer. */
  async serverName(): Promise<string | undefined> {
    return (await this.connect()).client.getServerVersion()?.name;
  }

  async listTools(): Promise<McpToolInfo[]> {
    const { client } = await this.connect();
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined).catch((error: unknown) => {
        throw this.tooLarge(error, 'tools/list') ?? error;
      });
      tools.push(...(page.tools as McpToolInfo[]));
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    timeoutMs?: number,
    connectTimeoutMs?: number,
  ): Promise<McpCallResult> {
    // Reconnecting (after the server dropped the last session) is bounded by the call's signal and the connect timeout.
    const open = !this.closed && this.current && !this.current.dropped ? this.current : undefined;
    const live = open ?? (await withinBound(this.connect(), { signal, timeoutMs: connectTimeoutMs, call: name }, this.server));
    try {
      return (await live.client.callTool({ name, arguments: args }, undefined, {
        signal,
        ...(timeoutMs !== undefined ? { timeout: timeoutMs } : {}),
      })) as McpCallResult;
    } catch (error) {
      if (signal.aborted) throw error;
      const tooLarge = this.tooLarge(error, `"${name}"`);
      if (tooLarge) throw tooLarge;
      if (live.dropped || this.isSessionLoss(error)) {
        this.drop(live);
        throw new McpError(
          'connection',
          `the MCP server (${describeServer(this.server)}) dropped the session during this call, so "${name}" may or may not have run; it was not sent again. Check its effect before calling it again (the next call opens a new session). (${(error as Error).message})`,
          { cause: error },
        );
      }
      throw error;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const live = this.current;
    this.current = undefined;
    // A session still opening is ended now, not when the server answers (it may never).
    await Promise.all([this.connecting?.close().catch(() => undefined), live && this.end(live)]);
  }

  private async connect(): Promise<Live> {
    if (this.closed)
      throw new McpError('connection', `the MCP tools of ${describeServer(this.server)} were closed; open them again with mcpTools().`);
    if (this.current && !this.current.dropped) return this.current;
    if (!this.opening) {
      const reconnecting = this.opened;
      this.opening = this.open()
        .then(async (live) => {
          // close() ran while this session was opening: end it rather than leave a child behind.
          if (this.closed) {
            await this.end(live);
            throw new McpError('connection', `the MCP tools of ${describeServer(this.server)} were closed while connecting.`);
          }
          this.current = live;
          if (reconnecting) this.events.onReconnected();
          return live;
        })
        .finally(() => {
          this.opening = undefined;
        });
    }
    return this.opening;
  }

  private async open(): Promise<Live> {
    const { Client, StreamableHTTPClientTransport, ToolListChangedNotificationSchema } = this.sdk;
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    const transport =
      'stdio' in this.server
        ? boundedStdioTransport(
            this.sdk,
            {
              command: this.server.stdio.command,
              args: [...(this.server.stdio.args ?? [])],
              ...(this.server.stdio.env ? { env: { ...this.server.stdio.env } } : {}),
              ...(this.server.stdio.cwd ? { cwd: this.server.stdio.cwd } : {}),
              stderr: this.server.stdio.stderr ?? 'inherit',
            },
            this.server.stdio.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
          )
        : new StreamableHTTPClientTransport(new URL(String(this.server.url)), {
            requestInit: { headers: { ...(this.server.headers ?? {}) } },
          });
    const live: Live = { client, pid: undefined, dropped: false };
    client.onclose = () => this.drop(live);
    // A 404 on the transport's own requests (the stream of a call under way, resumed after it broke)
    // means the server forgot this session: end it, so calls waiting on it fail now instead of timing out.
    client.onerror = (error) => {
      if (this.isSessionLoss(error)) this.drop(live);
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.events.onToolsChanged());
    this.connecting = client;
    try {
      await client.connect(transport);
    } catch (error) {
      await client.close().catch(() => undefined);
      throw new McpError('connection', `Could not connect to the MCP server ${describeServer(this.server)}: ${(error as Error).message}`, {
        cause: error,
      });
    } finally {
      if (this.connecting === client) this.connecting = undefined;
    }
    this.opened = true;
    const pid = 'pid' in transport ? (transport.pid ?? undefined) : undefined;
    this.lastPid = pid;
    return Object.assign(live, { pid });
  }

  /** The stand-in answer for one over the stdio size limit (see BoundedMessageReader), as a typed error. */
  private tooLarge(error: unknown, request: string): McpError | undefined {
    if (!(error instanceof this.sdk.McpError) || error.code !== TOO_LARGE_CODE) return undefined;
    const { bytes, limit } = error.data as TooLargeData;
    return new McpError(
      'too_large',
      `the answer of the MCP server ${describeServer(this.server)} to ${request} is ${bytes} bytes, over the limit of ${limit} bytes for one stdio message, so it was dropped; the server is still connected and the next call works. Ask for less (a narrower query, a smaller page), or raise the limit with mcpTools({ stdio: { …, maxMessageBytes } }).`,
      { bytes, limit },
    );
  }

  /** A 404 answers a request on a session the server no longer knows; a closed connection ends the session too. */
  private isSessionLoss(error: unknown): boolean {
    const { StreamableHTTPError, McpError } = this.sdk;
    if (error instanceof StreamableHTTPError) return error.code === 404;
    if (error instanceof McpError) return error.code === -32000; // ErrorCode.ConnectionClosed
    return error instanceof TypeError && /fetch failed/i.test(error.message);
  }

  private drop(live: Live): void {
    if (live.dropped) return;
    live.dropped = true;
    if (this.current === live) this.current = undefined;
    void this.end(live);
  }

  private async end(live: Live): Promise<void> {
    live.dropped = true;
    await live.client.close().catch(() => undefined);
    if (this.lastPid === live.pid) this.lastPid = undefined;
  }
}
