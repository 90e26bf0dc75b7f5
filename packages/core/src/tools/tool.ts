import { ConfigurationError } from '../errors/replan-error.js';
import type { ToolSpec } from '../models/chat-model.js';
import type { ToolContext } from './tool-context.js';
import { resolveSchema, type SchemaParse } from './schemas/resolve-schema.js';
import type { SchemaInput, SchemaKind, SchemaOutput } from './schemas/schema-input.js';

/** A tool an agent's model can call. Build one with `tool()`. */
// biome-ignore lint/suspicious/noExplicitAny: a default of `any` lets tools with different argument types share one `Tool[]`.
export interface Tool<Args = any, Output = unknown> {
  readonly name: string;
  readonly description: string;
  /** The arguments' schema as given: zod v4, zod v3, a JSON Schema, or `jsonSchema(schema, validate)`. */
  readonly parameters: SchemaInput;
  /** Which kind of schema `parameters` is (named in argument errors). */
  readonly schemaKind: SchemaKind;
  /** The JSON Schema sent to the model, made from `parameters` (`z.toJSONSchema` for zod v4, `zod-to-json-schema` for v3). */
  readonly jsonSchema: Record<string, unknown>;
  /** Validates a call's arguments with `parameters` (run before `execute`). */
  parseArgs(args: unknown): SchemaParse<Args>;
  /** Stop the run for a human's approval before this call runs. */
  readonly needsApproval?: boolean | ((args: Args, ctx: ToolContext) => boolean | Promise<boolean>);
  execute(args: Args, ctx: ToolContext): Output | Promise<Output>;
  /**
   * Undoes what a finished call of this tool did (cancel a booking, delete a file). It runs only
   * when asked: `run.abort({ compensate: true })`, `runner.cancel({ …, compensate: true })`, or a
   * plan–execute replan that drops steps (`compensateDropped`, or the replanner's `undo`). Then the
   * finished calls in scope are undone in reverse order of completion, each as a stored tool call
   * `<callId>:compensate` (`ctx.toolCallId`), exactly once across crashes like any tool call: a
   * compensation whose result is stored never runs again, one that started and has no stored
   * result runs again on resume — so key its side effect by `ctx.idempotencyKey`
   * (`<sessionId>:<callId>:compensate`). `args` are the call's arguments, `result` its stored output
   * (JSON). A call whose result was never stored is not compensated (it is reported as skipped);
   * nor is one whose result is an error. A throw stops the compensation: the run ends with a
   * `CompensationError` listing what was and was not undone; nothing is retried.
   */
  readonly compensate?: (args: Args, result: unknown, ctx: ToolContext) => unknown;
}

export interface ToolDefinition<Schema extends SchemaInput, Output> {
  readonly name: string;
  readonly description: string;
  /**
   * The arguments' schema, a JSON object: a zod v4 `z.object(...)`, a zod v3 one (needs the
   * `zod-to-json-schema` package), a plain JSON Schema, or `jsonSchema(schema, validate)`.
   */
  readonly parameters: Schema;
  readonly needsApproval?: boolean | ((args: SchemaOutput<Schema>, ctx: ToolContext) => boolean | Promise<boolean>);
  execute(args: SchemaOutput<Schema>, ctx: ToolContext): Output | Promise<Output>;
  /** Undoes a finished call (see `Tool.compensate`): optional; its return value is stored as the compensation's result. */
  compensate?(args: SchemaOutput<Schema>, result: unknown, ctx: ToolContext): unknown;
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Resolves a tool's parameters schema (any accepted kind) and checks it describes a JSON object. */
function resolveParameters<Args>(name: string, schema: unknown) {
  const resolved = resolveSchema<Args>(schema, `Tool "${name}": parameters`, 'input');
  if (resolved.jsonSchema.type !== 'object')
    throw new ConfigurationError(
      `Tool "${name}": parameters must describe an object (tool arguments are a JSON object), e.g. z.object({ query: z.string() }) or { type: 'object', properties: { … } }; got ${String(resolved.jsonSchema.type ?? 'a schema without type')} (${resolved.kind}).`,
    );
  return resolved;
}

/** Makes the JSON Schema of an object schema (zod v4, zod v3 or JSON Schema), as a model expects tool parameters. */
export function toolParametersSchema(name: string, schema: SchemaInput): Record<string, unknown> {
  return resolveParameters(name, schema).jsonSchema;
}

/**
 * Defines a tool. Arguments are parsed with `parameters` before `execute`; a validation error,
 * a thrown error or an unknown tool name becomes an error result the model sees.
 */
export function tool<Schema extends SchemaInput, Output>(def: ToolDefinition<Schema, Output>): Tool<SchemaOutput<Schema>, Output> {
  // The AI SDK's tool() names the schema `inputSchema` (and has no name): say what replan's takes.
  if (def && typeof def === 'object' && 'inputSchema' in def)
    throw new ConfigurationError(
      `Tool${typeof def.name === 'string' ? ` "${def.name}"` : ''}: replan's tool() takes the arguments' schema as \`parameters\`, not \`inputSchema\` (the AI SDK's name): ` +
        'write tool({ name, description, parameters: z.object({ … }), execute }).',
    );
  if (!TOOL_NAME.test(def.name))
    throw new ConfigurationError(`Tool name "${def.name}" is invalid: use 1-64 letters, digits, "_" or "-" (what every provider accepts).`);
  if (typeof def.execute !== 'function') throw new ConfigurationError(`Tool "${def.name}" needs an execute function.`);
  if (def.compensate !== undefined && typeof def.compensate !== 'function')
    throw new ConfigurationError(`Tool "${def.name}": compensate must be a function (args, result, ctx) that undoes a finished call.`);
  const schema = resolveParameters<SchemaOutput<Schema>>(def.name, def.parameters);
  return {
    name: def.name,
    description: def.description,
    parameters: def.parameters,
    schemaKind: schema.kind,
    jsonSchema: schema.jsonSchema,
    parseArgs: (args) => schema.parse(args),
    ...(def.needsApproval !== undefined ? { needsApproval: def.needsApproval } : {}),
    execute: def.execute,
    ...(def.compensate ? { compensate: def.compensate.bind(def) } : {}),
  };
}

const specs = new WeakMap<Tool, ToolSpec>();

/** A tool as a model sees it. One spec object per tool, so request fingerprints digest it once. */
export function toolSpecOf(t: Tool): ToolSpec {
  let spec = specs.get(t);
  if (!spec) {
    spec = { name: t.name, description: t.description, parameters: t.jsonSchema };
    specs.set(t, spec);
  }
  return spec;
}
