import { ConfigurationError } from '@replan/core';
import { jsonSchema } from '@replan/core';
import { type Tool, tool } from '@replan/core';
import type { McpSdk } from './load-mcp-sdk.js';
import { aborted, withinBound } from './mcp-connect-bound.js';
import { McpConnection } from './mcp-connection.js';
import { McpError } from './mcp-errors.js';
import { toolOutputOf } from './mcp-result.js';
import type { McpServer, McpToolInfo } from './mcp-server-config.js';
import { sanitiseToolName, ToolNamer } from './mcp-tool-names.js';
import type { McpToolset, McpToolsOptions } from './mcp-tools.js';

/** `mcpTools` with a replaceable SDK loader (tests stand for an app without the SDK installed). */
export async function openMcpToolset(server: McpServer, options: McpToolsOptions, load: () => Promise<McpSdk>): Promise<McpToolset> {
  checkServer(server);
  // An aborted signal starts no server.
  if (options.signal?.aborted) throw aborted(server, options.signal.reason);
  if (options.prefix !== undefined && !/^[a-zA-Z0-9_-]{1,40}$/.test(options.prefix))
    throw new ConfigurationError(`mcpTools: prefix "${options.prefix}" is invalid: use 1-40 letters, digits, "_" or "-".`);
  const set = new LiveToolset(await load(), server, options);
  await set.start();
  return set;
}

function checkServer(server: McpServer): void {
  const ok =
    server && typeof server === 'object'
      ? 'stdio' in server
        ? typeof server.stdio?.command === 'string' && server.stdio.command.length > 0
        : 'url' in server && (server.url instanceof URL || URL.canParse(String(server.url)))
      : false;
  const limit = ok && 'stdio' in server ? server.stdio.maxMessageBytes : undefined;
  if (limit !== undefined && !(Number.isSafeInteger(limit) && limit > 0))
    throw new ConfigurationError(`mcpTools: stdio.maxMessageBytes must be a positive whole number of bytes; got ${String(limit)}.`);
  if (!ok)
    throw new ConfigurationError(
      `mcpTools: the server must be { stdio: { command, args?, env?, cwd? } } or { url, headers? } with a valid URL; got ${shapeOf(server)}.`,
    );
}

type Validate = (value: unknown) => { valid: boolean; errorMessage?: string };

class LiveToolset implements McpToolset {
  serverName = '';
  private readonly connection: McpConnection;
  private defs = new Map<string, McpToolInfo>();
  private readonly objects = new Map<string, Tool>();
  private readonly validators = new WeakMap<McpToolInfo, Validate | null>();
  private namer!: ToolNamer;
  private refreshing: Promise<readonly Tool[]> | undefined;
  private readonly stopOnAbort = () => void this.close();

  constructor(
    private readonly sdk: McpSdk,
    private readonly server: McpServer,
    private readonly options: McpToolsOptions,
  ) {
    this.connection = new McpConnection(sdk, server, {
      onToolsChanged: () => void this.refreshQuietly(),
      onReconnected: () => void this.refreshQuietly(),
    });
  }

  get pid(): number | undefined {
    return this.connection.pid;
  }

  get tools(): readonly Tool[] {
    return [...this.defs.values()].map((def) => this.toolOf(def));
  }

  /** Connects and reads the tool list, within `connectTimeoutMs` (else `timeoutMs`) and until `signal` aborts, all together. */
  async start(): Promise<void> {
    const { signal, timeoutMs, connectTimeoutMs = timeoutMs } = this.options;
    try {
      await withinBound(this.connectAndList(), { signal, timeoutMs: connectTimeoutMs }, this.server);
    } catch (error) {
      // Abandoned or failed: end the session (and a stdio server process) without waiting on it.
      void this.connection.close();
      throw error;
    }
    // Aborted just as connecting finished: nobody will close this toolset.
    if (signal?.aborted) {
      void this.connection.close();
      throw aborted(this.server, signal.reason);
    }
    signal?.addEventListener('abort', this.stopOnAbort, { once: true });
  }

  private async connectAndList(): Promise<void> {
    this.serverName = sanitiseToolName(this.options.name ?? (await this.connection.serverName()) ?? 'mcp');
    const taken = new Set((this.options.alongside ?? []).map((t) => (typeof t === 'string' ? t : t.name)));
    this.namer = new ToolNamer(this.serverName, this.options.prefix, () => taken);
    await this.refresh();
  }

  refresh(): Promise<readonly Tool[]> {
    this.refreshing ??= this.connection
      .listTools()
      .then((listed) => {
        const filter = this.options.filter;
        const kept = filter ? listed.filter((t) => (typeof filter === 'function' ? filter(t) : filter.includes(t.name))) : listed;
        this.defs = new Map(kept.map((t) => [t.name, t]));
        return this.tools;
      })
      .finally(() => {
        this.refreshing = undefined;
      });
    return this.refreshing;
  }

  async close(): Promise<void> {
    this.options.signal?.removeEventListener('abort', this.stopOnAbort);
    await this.connection.close();
  }

  private async refreshQuietly(): Promise<void> {
    // A failed refresh keeps the list it had; the next notification or call tries again.
    const tools = await this.refresh().catch(() => undefined);
    if (tools) this.options.onToolsChanged?.(tools);
  }

  private toolOf(def: McpToolInfo): Tool {
    const known = this.objects.get(def.name);
    if (known) return known;
    const mcpName = def.name;
    const current = () => this.defs.get(mcpName);
    const base = tool({
      name: this.namer.nameOf(mcpName),
      description: def.description ?? def.title ?? mcpName,
      // The server's JSON Schema, checked with Ajv (shipped with the SDK) against the tool's latest definition.
      parameters: jsonSchema({ type: 'object', ...def.inputSchema }, (args) => {
        const found = current();
        const result = found && this.validatorOf(found)?.(args);
        return result && !result.valid ? [{ path: [], message: result.errorMessage ?? 'does not match the tool schema' }] : [];
      }),
      execute: async (args, ctx) => {
        if (!current())
          throw new McpError(
            'tool',
            `the MCP server ${this.serverName} no longer offers the tool "${mcpName}" (its tool list changed); use another tool.`,
          );
        return toolOutputOf(
          await this.connection.callTool(
            mcpName,
            args,
            ctx.signal,
            this.options.timeoutMs,
            this.options.connectTimeoutMs ?? this.options.timeoutMs,
          ),
        );
      },
    });
    // The description and schema the model sees are the server's latest.
    const made: Tool = Object.defineProperties(
      { ...base },
      {
        description: { get: () => current()?.description ?? base.description, enumerable: true },
        jsonSchema: { get: () => modelSchemaOf(current() ?? def), enumerable: true },
      },
    );
    this.objects.set(mcpName, made);
    return made;
  }

  private validatorOf(def: McpToolInfo): Validate | null {
    let validate = this.validators.get(def);
    if (validate === undefined) {
      try {
        validate = new this.sdk.AjvJsonSchemaValidator().getValidator(def.inputSchema as never) as Validate;
      } catch {
        validate = null; // a schema Ajv cannot compile: the server still validates its own arguments
      }
      this.validators.set(def, validate);
    }
    return validate;
  }
}

/** What was given, for an error message, without values (headers and env may hold secrets). */
function shapeOf(server: unknown): string {
  if (!server || typeof server !== 'object') return JSON.stringify(server) ?? String(server);
  const s = server as { stdio?: unknown; url?: unknown };
  if ('url' in s) return `a url ${JSON.stringify(String(s.url))}`;
  if ('stdio' in s) return `stdio ${JSON.stringify({ command: (s.stdio as { command?: unknown } | undefined)?.command })}`;
  return `an object with keys ${Object.keys(s).join(', ') || '(none)'}`;
}

/** The tool's input schema as the server gave it, minus `$schema` (some providers reject it). */
function modelSchemaOf(def: McpToolInfo): Record<string, unknown> {
  const { $schema: _draft, ...schema } = def.inputSchema;
  return { type: 'object', ...schema };
}
