import { ConfigurationError } from '@replan/core';
import { z } from 'zod';

type Json = Record<string, unknown>;

/** A schema that strict structured output cannot express: a `ConfigurationError` naming the place, thrown before any request is sent. */
export const strictSchemaError = (schemaName: string, path: string, reason: string): ConfigurationError =>
  new ConfigurationError(
    `Schema "${schemaName}" cannot be used for strict structured output at ${path || '(root)'}: ${reason}. ` +
      'Change the schema (or pass responseFormat.strict: false to send it unchecked).',
  );

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const META_KEYS = new Set([
  '$schema',
  '$id',
  'title',
  'description',
  'default',
  'examples',
  '$comment',
  'deprecated',
  'readOnly',
  'writeOnly',
]);

/** A JSON Schema from a zod v4 schema, or the JSON Schema itself (a copy, without `$schema`). */
export function jsonSchemaOf(schema: unknown, name = 'schema'): Json {
  if (isRecord(schema) && '_zod' in schema) {
    const json = z.toJSONSchema(schema as unknown as z.ZodType, { io: 'output', unrepresentable: 'any' }) as Json;
    delete json.$schema;
    return json;
  }
  if (isRecord(schema) && '_def' in schema && typeof (schema as { safeParse?: unknown }).safeParse === 'function')
    throw strictSchemaError(name, '', 'this is a zod v3 schema; use zod v4 (import { z } from "zod", zod >= 4)');
  if (!isRecord(schema)) throw strictSchemaError(name, '', 'the schema is not a JSON Schema object');
  const copy = structuredClone(schema);
  delete copy.$schema;
  return copy;
}

/** True when the schema says nothing: `{}`, `true`, or only titles and descriptions. */
export function isEmptySchema(schema: unknown): boolean {
  if (schema === true) return true;
  if (!isRecord(schema)) return false;
  return Object.keys(schema).every((k) => META_KEYS.has(k));
}

/**
 * Makes the schema OpenAI's strict structured-output mode accepts, from a zod v4 schema or a
 * JSON Schema: every property required, optional properties nullable, `additionalProperties:
 * false` on every object, `oneOf` as `anyOf`, no `default`. What strict mode cannot express is
 * rejected here with a `ConfigurationError` naming the place: records (`z.record`, free-form
 * objects), tuples, a union at the root, a non-object root, `allOf`, `not`, untyped values
 * (`z.any()`, `z.unknown()`, `z.date()`), and an empty schema.
 */
export function toStrictJsonSchema(schema: unknown, name = 'schema'): Json {
  const source = jsonSchemaOf(schema, name);
  if (isEmptySchema(source))
    throw strictSchemaError(name, '', 'the schema is empty (it describes nothing, so the model would be unconstrained)');
  if (source.anyOf || source.oneOf)
    throw strictSchemaError(
      name,
      '',
      'the root is a union; strict mode needs an object at the root — wrap it: z.object({ result: z.union([...]) })',
    );
  if (source.type !== 'object')
    throw strictSchemaError(
      name,
      '',
      `the root must be an object (got ${JSON.stringify(source.type ?? Object.keys(source))}); wrap it: z.object({ result: ... })`,
    );
  const out = strictNode(source, '', name);
  if (isRecord(out.properties) && Object.keys(out.properties).length === 0)
    throw strictSchemaError(name, '', 'the root object has no properties; the model could only answer {}');
  return out;
}

function strictNode(node: unknown, path: string, name: string): Json {
  if (node === true || node === false || !isRecord(node))
    throw strictSchemaError(name, path, `${JSON.stringify(node)} is not a schema strict mode accepts`);
  if (isEmptySchema(node))
    throw strictSchemaError(
      name,
      path,
      'the value has no type (z.any(), z.unknown() or an unrepresentable type such as z.date()); give it a concrete type',
    );
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema' || key === 'default') continue;
    out[key] = value;
  }
  if (out.allOf) throw strictSchemaError(name, path, 'allOf (an intersection) is not supported; merge the objects into one');
  if (out.not) throw strictSchemaError(name, path, '"not" is not supported');
  if (out.prefixItems || Array.isArray(out.items))
    throw strictSchemaError(name, path, 'tuples are not supported; use an object with named fields or an array of one type');
  if (out.oneOf) {
    out.anyOf = out.oneOf;
    delete out.oneOf;
  }
  if (Array.isArray(out.anyOf)) out.anyOf = out.anyOf.map((s, i) => strictNode(s, `${path}.anyOf[${i}]`, name));
  for (const defsKey of ['$defs', 'definitions'] as const) {
    const defs = out[defsKey];
    if (isRecord(defs))
      out[defsKey] = Object.fromEntries(Object.entries(defs).map(([k, s]) => [k, strictNode(s, `${path}.${defsKey}.${k}`, name)]));
  }
  const types = Array.isArray(out.type) ? out.type : [out.type];
  if (types.includes('object') || isRecord(out.properties)) strictObject(out, path, name);
  if (types.includes('array')) {
    if (out.items === undefined) throw strictSchemaError(name, path, 'an array needs an item type');
    out.items = strictNode(out.items, `${path}[]`, name);
  }
  return out;
}

function strictObject(out: Json, path: string, name: string): void {
  if (out.propertyNames || out.patternProperties)
    throw strictSchemaError(
      name,
      path,
      'records (z.record, objects with arbitrary keys) are not supported; use an array of { key, value } objects',
    );
  const properties = isRecord(out.properties) ? out.properties : {};
  const extra = out.additionalProperties;
  if (isRecord(extra) && !isEmptySchema(extra))
    throw strictSchemaError(
      name,
      path,
      'records (objects with arbitrary keys of a given type) are not supported; use an array of { key, value } objects',
    );
  if ((extra === true || isRecord(extra)) && Object.keys(properties).length === 0)
    throw strictSchemaError(name, path, 'a free-form object (no properties, any keys) is not supported; list its properties');
  const required = new Set(Array.isArray(out.required) ? (out.required as string[]) : []);
  const strictProps: Json = {};
  for (const [key, prop] of Object.entries(properties)) {
    const child = strictNode(prop, path ? `${path}.${key}` : key, name);
    strictProps[key] = required.has(key) || acceptsNull(child) ? child : nullable(child);
  }
  out.properties = strictProps;
  out.required = Object.keys(strictProps);
  out.additionalProperties = false;
}

/** Whether a schema already allows `null`. */
export function acceptsNull(schema: unknown): boolean {
  if (!isRecord(schema)) return false;
  if (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'))) return true;
  if (schema.const === null) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  const union = (schema.anyOf ?? schema.oneOf) as unknown;
  return Array.isArray(union) && union.some(acceptsNull);
}

function nullable(schema: Json): Json {
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  const { description, ...rest } = schema;
  return { ...(description !== undefined ? { description } : {}), anyOf: [rest, { type: 'null' }] };
}
