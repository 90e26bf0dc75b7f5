import type { AgentEvent } from '../events/agent-event.js';
import type { Agent } from '../invocation/agent.js';
import type { InvocationContext } from '../invocation/invocation-context.js';
import { assertAgentName, DUPLICATE_NAME_FIX } from '../invocation/agent-name.js';
import { ConfigurationError } from '../errors/replan-error.js';
import { type AgentToolOptions, agentTool, type agentToolParameters } from '../composition/agent-tool.js';
import type { SchemaInput, SchemaOutput } from '../tools/schemas/schema-input.js';
import type { Tool } from '../tools/tool.js';
import type { Guardrails } from '../invocation/guardrail.js';

export interface WorkflowAgentOptions {
  readonly name: string;
  readonly description?: string;
  readonly subAgents: readonly Agent[];
  /** Checks on the run's input and final output when a run starts this agent (a tripwire ends it `blocked`). */
  readonly guardrails?: Guardrails;
}

/** Validates a workflow agent's options: a valid name and uniquely named sub-agents. */
export function checkWorkflowOptions(kind: string, options: WorkflowAgentOptions): void {
  assertAgentName(options.name);
  if (!Array.isArray(options.subAgents) || options.subAgents.length === 0)
    throw new ConfigurationError(`${kind} "${options.name}" needs at least one sub-agent in subAgents.`);
  const names = new Set<string>([options.name]);
  for (const agent of options.subAgents) {
    if (names.has(agent.name))
      throw new ConfigurationError(
        `${kind} "${options.name}": agent name "${agent.name}" is used twice; names must be unique in a tree. ${DUPLICATE_NAME_FIX}`,
      );
    names.add(agent.name);
  }
}

/** What every workflow agent shares: a checked name, a description and its sub-agents. */
export abstract class WorkflowAgent implements Agent {
  readonly name: string;
  readonly description: string;
  readonly subAgents: readonly Agent[];
  readonly guardrails: Guardrails | undefined;

  protected constructor(kind: string, options: WorkflowAgentOptions) {
    checkWorkflowOptions(kind, options);
    this.name = options.name;
    this.guardrails = options.guardrails;
    this.description = options.description ?? '';
    this.subAgents = options.subAgents;
  }

  /** This agent as a tool that runs it in a child session per call: `agentTool(this, options)`. */
  asTool<Schema extends SchemaInput = typeof agentToolParameters, Output = unknown>(
    options: AgentToolOptions<Schema, Output> = {},
  ): Tool<SchemaOutput<Schema>, unknown> {
    return agentTool(this, options);
  }

  abstract run(ctx: InvocationContext): AsyncGenerator<AgentEvent, void, undefined>;
}
