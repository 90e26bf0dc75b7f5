import type { z } from 'zod';

/** The kinds of schema a tool's `parameters` or an agent's `outputSchema` may be. */
export type SchemaKind = 'zod v4 schema' | 'zod v3 schema' | 'JSON Schema';

/** One problem a validator found: where (a path into the value, `[]` for the root) and what. */
export interface SchemaIssue {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** Validates a value against a plain JSON Schema: the problems found, none when it is valid (e.g. wrapping Ajv). */
export type JsonSchemaValidator = (value: unknown) => readonly SchemaIssue[];

/** A zod v3 schema (`import { z } from 'zod/v3'`, or the `zod@3` package), as far as we use it. */
export interface ZodV3Schema<Output = unknown> {
  readonly _def: unknown;
  readonly _output: Output;
  safeParse(value: unknown): { success: true; data: Output } | { success: false; error: { issues: readonly SchemaIssue[] } };
}

/** A plain JSON Schema object (draft 7 or 2020-12), e.g. `{ type: 'object', properties: { … }, required: [ … ] }`. */
export type JsonSchemaObject = Readonly<Record<string, unknown>>;

declare const argsType: unique symbol;

/** A JSON Schema with its validator, from `jsonSchema(schema, validate)`; `T` types the values it accepts. */
export interface ValidatedJsonSchema<T = Record<string, unknown>> {
  readonly kind: 'json-schema';
  readonly schema: JsonSchemaObject;
  readonly validate?: JsonSchemaValidator;
  /** Type only. */
  readonly [argsType]?: T;
}

/**
 * A plain JSON Schema, with an optional validator (e.g. one built with Ajv), for `tool({ parameters })`
 * or `outputSchema`. Without a validator only the top-level `type` and the `required` properties
 * are checked. `T` is the type the arguments get (default `Record<string, unknown>`).
 */
export function jsonSchema<T = Record<string, unknown>>(schema: JsonSchemaObject, validate?: JsonSchemaValidator): ValidatedJsonSchema<T> {
  return { kind: 'json-schema', schema, ...(validate ? { validate } : {}) };
}

/** What `tool({ parameters })` and `outputSchema` accept: zod v4, zod v3, a plain JSON Schema, or `jsonSchema(schema, validate)`. */
export type SchemaInput = z.ZodType | ZodV3Schema | ValidatedJsonSchema<unknown> | JsonSchemaObject;

/** The value type a schema accepts: its zod output, the `T` of `jsonSchema<T>()`, else a JSON object. */
export type SchemaOutput<S> = S extends z.ZodType
  ? z.output<S>
  : S extends ZodV3Schema<infer O>
    ? O
    : S extends ValidatedJsonSchema<infer T>
      ? T
      : Record<string, unknown>;
