import { ConfigurationError, type Runner, type SchemaInput, tool } from '@replan/core';
import { toolParametersSchema, type SchemaParse } from '@replan/core/agent-kit';

/** One agent to serve: its runner, and what the MCP tool says about it (defaults: the agent's name and description). */
export interface ServedAgentOptions {
  readonly runner: Runner;
  /** The tool's name (default: the agent's name). Letters, digits, `_`, `-` and `.`, at most 64. */
  readonly name?: string;
  /** The tool's description (default: the agent's description). */
  readonly description?: string;
  /**
   * The agent's `outputSchema` (an object schema: zod v4 or v3, or JSON Schema), when it has one: the tool then
   * declares it and returns the run's structured answer as `structuredContent`.
   */
  readonly outputSchema?: SchemaInput;
  /**
   * The agent's declared parameters (an object schema: zod v4 or v3, or JSON Schema): the tool takes them
   * instead of `{ input }`, checks a call's arguments against them (a failing call is an error result saying
   * what is wrong) and gives the agent the arguments as JSON.
   */
  readonly parameters?: SchemaInput;
}

/** Declared parameters, resolved: their JSON Schema and their check. */
export interface ServedParameters {
  readonly jsonSchema: Record<string, unknown>;
  parse(args: unknown): SchemaParse<unknown>;
}

/** A runner as the MCP server serves it. */
export interface ServedAgent {
  readonly name: string;
  readonly description: string;
  readonly runner: Runner;
  /** The JSON Schema of the structured answer, when the agent has one. */
  readonly outputSchema: Record<string, unknown> | undefined;
  /** The declared parameters, when the entry has them (else the tool takes `{ input }`). */
  readonly parameters: ServedParameters | undefined;
}

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** Names each runner's tool and checks that the names are valid and distinct. */
export function servedAgents(runners: readonly (Runner | ServedAgentOptions)[]): ReadonlyMap<string, ServedAgent> {
  if (runners.length === 0) throw new ConfigurationError('mcpServer: pass at least one runner in `runners`.');
  const served = new Map<string, ServedAgent>();
  for (const entry of runners) {
    const options: ServedAgentOptions = 'runner' in entry ? entry : { runner: entry };
    const name = options.name ?? options.runner.agent.name;
    if (!TOOL_NAME.test(name))
      throw new ConfigurationError(
        `mcpServer: "${name}" is not a valid MCP tool name (letters, digits, "_", "-" and ".", at most 64): pass \`name\` for that runner.`,
      );
    if (served.has(name)) throw new ConfigurationError(`mcpServer: two runners are served as "${name}": pass a distinct \`name\` for one.`);
    served.set(name, {
      name,
      description: options.description ?? options.runner.agent.description,
      runner: options.runner,
      outputSchema: options.outputSchema === undefined ? undefined : toolParametersSchema(name, options.outputSchema),
      parameters: options.parameters === undefined ? undefined : declaredParameters(name, options.parameters),
    });
  }
  return served;
}

/** Resolves declared parameters the way `tool()` does (same schema kinds, same messages). */
function declaredParameters(name: string, schema: SchemaInput): ServedParameters {
  const resolved = tool({ name, description: name, parameters: schema, execute: () => undefined });
  return { jsonSchema: resolved.jsonSchema, parse: (args) => resolved.parseArgs(args) };
}
