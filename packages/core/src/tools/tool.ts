import { z } from 'zod';
import { ConfigurationError } from '../errors/replan-error.js';
import type { ToolSpec } from '../models/chat-model.js';
import type { ToolContext } from './tool-context.js';

/** A tool an agent's model can call. Build one with `tool()`. */
// biome-ignore lint/suspicious/noExplicitAny: a default of `any` lets tools with different argument types share one `Tool[]`.
export interface Tool<Args = any, Output = unknown> {
  readonly name: string;
  readonly description: string;
  /** Arguments are validated with this schema before `execute`. */
  readonly parameters: z.ZodType<Args>;
  /** The JSON Schema sent to the model, made from `parameters` with `z.toJSONSchema`. */
  readonly jsonSchema: Record<string, unknown>;
  /** Stop the run for a human's approval before this call runs. */
  readonly needsApproval?: boolean | ((args: Args, ctx: ToolContext) => boolean | Promise<boolean>);
  execute(args: Args, ctx: ToolContext): Output | Promise<Output>;
}

export interface ToolDefinition<Schema extends z.ZodType, Output> {
  readonly name: string;
  readonly description: string;
  readonly parameters: Schema;
  readonly needsApproval?: boolean | ((args: z.output<Schema>, ctx: ToolContext) => boolean | Promise<boolean>);
  execute(args: z.output<Schema>, ctx: ToolContext): Output | Promise<Output>;
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Makes the JSON Schema of a zod v4 object schema, as a model expects tool parameters. */
export function toolParametersSchema(name: string, schema: z.ZodType): Record<string, unknown> {
  if (!schema || typeof schema !== 'object' || !('_zod' in schema))
    throw new ConfigurationError(
      `Tool "${name}": parameters must be a zod v4 schema (import { z } from 'zod'), e.g. z.object({ query: z.string() }).`,
    );
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  if (json.type !== 'object')
    throw new ConfigurationError(
      `Tool "${name}": parameters must be a z.object(...) (tool arguments are a JSON object); got ${String(json.type ?? 'a non-object schema')}.`,
    );
  return json;
}

/**
 * Defines a tool. Arguments are parsed with `parameters` before `execute`; a validation error,
 * a thrown error or an unknown tool name becomes an error result the model sees.
 */
export function tool<Schema extends z.ZodType, Output>(def: ToolDefinition<Schema, Output>): Tool<z.output<Schema>, Output> {
  if (!TOOL_NAME.test(def.name))
    throw new ConfigurationError(
      `Tool name "${def.name}" is invalid: use 1-64 letters, digits, "_" or "-" (what every provider accepts).`,
    );
  if (typeof def.execute !== 'function') throw new ConfigurationError(`Tool "${def.name}" needs an execute function.`);
  return {
    name: def.name,
    description: def.description,
    parameters: def.parameters as z.ZodType<z.output<Schema>>,
    jsonSchema: toolParametersSchema(def.name, def.parameters),
    ...(def.needsApproval !== undefined ? { needsApproval: def.needsApproval } : {}),
    execute: def.execute,
  };
}

export const toolSpecOf = (t: Tool): ToolSpec => ({ name: t.name, description: t.description, parameters: t.jsonSchema });
