import { z } from 'zod';
import { ConfigurationError } from '../../errors/replan-error.js';
import { checkJsonSchemaShape, isJsonSchemaObject } from './json-schema-shape.js';
import { zodV3JsonSchema } from './zod-v3-json-schema.js';
import type { JsonSchemaObject, JsonSchemaValidator, SchemaIssue, SchemaKind, ValidatedJsonSchema, ZodV3Schema } from './schema-input.js';

/** A validation result: the parsed value, or its problems as one line naming each path. */
export type SchemaParse<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly issues: string };

/** A schema of any accepted kind, made uniform: its kind, its JSON Schema, and a validator. */
export interface ResolvedSchema<T = unknown> {
  readonly kind: SchemaKind;
  /** The JSON Schema sent to the model (no `$schema` key). */
  readonly jsonSchema: Record<string, unknown>;
  parse(value: unknown): SchemaParse<T>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isZodV4 = (v: unknown): v is z.ZodType => isObject(v) && '_zod' in v;
const isZodV3 = (v: unknown): v is ZodV3Schema => isObject(v) && '_def' in v && !('_zod' in v) && typeof v.safeParse === 'function';
const isValidated = (v: unknown): v is ValidatedJsonSchema<unknown> => isObject(v) && v.kind === 'json-schema' && isObject(v.schema);

/** Issues as one line: `path: message; …` (`(root)` for the value itself). */
export const formatIssues = (issues: readonly SchemaIssue[]): string =>
  issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`).join('; ');

/**
 * Makes any accepted schema uniform, or throws a `ConfigurationError` naming what was given.
 * `who` starts the error message (e.g. `Tool "search": parameters`); `io` picks the zod side
 * (a tool's input, an answer's output).
 */
export function resolveSchema<T = unknown>(schema: unknown, who: string, io: 'input' | 'output'): ResolvedSchema<T> {
  if (isZodV4(schema)) {
    const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
    delete json.$schema;
    return {
      kind: 'zod v4 schema',
      jsonSchema: json,
      parse: (value) => {
        const r = z.safeParse(schema, value);
        return r.success ? { ok: true, value: r.data as T } : { ok: false, issues: formatIssues(r.error.issues as SchemaIssue[]) };
      },
    };
  }
  if (isZodV3(schema)) {
    return {
      kind: 'zod v3 schema',
      jsonSchema: zodV3JsonSchema(schema, who),
      parse: (value) => {
        const r = schema.safeParse(value);
        return r.success ? { ok: true, value: r.data as T } : { ok: false, issues: formatIssues(r.error.issues) };
      },
    };
  }
  if (isValidated(schema)) return plainJsonSchema<T>(schema.schema, who, schema.validate);
  if (isJsonSchemaObject(schema)) return plainJsonSchema<T>(schema, who);
  throw new ConfigurationError(
    `${who} must be a zod v4 schema, a zod v3 schema, a JSON Schema object or jsonSchema(schema, validate); got ${describeGiven(schema)}.`,
  );
}

function plainJsonSchema<T>(schema: JsonSchemaObject, who: string, validate?: JsonSchemaValidator): ResolvedSchema<T> {
  if (!isJsonSchemaObject(schema))
    throw new ConfigurationError(`${who}: jsonSchema(schema) needs a JSON Schema object; got ${describeGiven(schema)}.`);
  const { $schema: _draft, ...json } = schema;
  return {
    kind: 'JSON Schema',
    jsonSchema: json,
    parse: (value) => {
      const issues = validate ? validate(value) : checkJsonSchemaShape(json, value);
      return issues.length ? { ok: false, issues: formatIssues(issues) } : { ok: true, value: value as T };
    },
  };
}

/** What was given, for an error message: its type, or its keys for an object. */
export function describeGiven(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'function') return 'a function';
  if (!isObject(value)) return `${typeof value} ${JSON.stringify(value)}`;
  const keys = Object.keys(value);
  return keys.length
    ? `an object with keys ${keys.slice(0, 6).join(', ')}${keys.length > 6 ? ', …' : ''} (not a JSON Schema: no type, properties or other JSON Schema keyword)`
    : 'an empty object (not a JSON Schema: no type, properties or other JSON Schema keyword)';
}
