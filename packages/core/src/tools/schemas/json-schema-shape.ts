import type { JsonSchemaObject, SchemaIssue } from './schema-input.js';

/** Keywords that make a plain object a JSON Schema (at least one must be there). */
const KEYWORDS = [
  'type',
  'properties',
  '$schema',
  '$ref',
  'anyOf',
  'oneOf',
  'allOf',
  'enum',
  'const',
  'items',
  'required',
  'additionalProperties',
];

/** True for a plain object carrying at least one JSON Schema keyword. */
export function isJsonSchemaObject(value: unknown): value is JsonSchemaObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  return KEYWORDS.some((k) => k in value);
}

const typeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v);
const matchesType = (v: unknown, type: unknown): boolean => {
  const types = Array.isArray(type) ? type : [type];
  const actual = typeOf(v);
  return types.some((t) => t === actual || (t === 'number' && actual === 'integer'));
};

/**
 * The check made without a validator: the value's top-level `type` and its `required`
 * properties (and their declared `type`). A validator (`jsonSchema(schema, validate)`) checks
 * the rest.
 */
export function checkJsonSchemaShape(schema: JsonSchemaObject, value: unknown): SchemaIssue[] {
  if (schema.type !== undefined && !matchesType(value, schema.type))
    return [{ path: [], message: `expected ${String(schema.type)}, got ${typeOf(value)}` }];
  if (typeOf(value) !== 'object') return [];
  const record = value as Record<string, unknown>;
  const issues: SchemaIssue[] = [];
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown } | undefined>;
  for (const key of Array.isArray(schema.required) ? (schema.required as string[]) : [])
    if (!(key in record)) issues.push({ path: [key], message: 'required property missing' });
  for (const [key, v] of Object.entries(record)) {
    const type = properties[key]?.type;
    if (type !== undefined && !matchesType(v, type)) issues.push({ path: [key], message: `expected ${String(type)}, got ${typeOf(v)}` });
  }
  return issues;
}
