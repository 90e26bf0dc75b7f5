import { acceptsNull } from './strict-json-schema.js';

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Undoes the "optional → nullable" step of `toStrictJsonSchema` on a structured answer: a `null`
 * the model had to write for a property the original schema left optional (and never allowed to be
 * `null`) is removed, so the answer validates against the original zod schema. Returns the same
 * text when nothing changes or the text is not JSON.
 */
export function restoreOptionalText(text: string, originalSchema: Json): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  const changed = restore(value, originalSchema, originalSchema, 0);
  return changed ? JSON.stringify(value) : text;
}

function resolve(schema: unknown, root: Json): Json | undefined {
  if (!isRecord(schema)) return undefined;
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  if (ref === '#') return root;
  const m = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  const defs = m ? root[m[1] as string] : undefined;
  return m && isRecord(defs) ? resolve(defs[m[2] as string], root) : undefined;
}

function restore(value: unknown, schemaIn: unknown, root: Json, depth: number): boolean {
  if (depth > 64) return false;
  const schema = resolve(schemaIn, root);
  if (!schema) return false;
  let changed = false;
  if (Array.isArray(value)) {
    for (const item of value) changed = restore(item, schema.items, root, depth + 1) || changed;
    return changed;
  }
  if (!isRecord(value)) return false;
  const union = (schema.anyOf ?? schema.oneOf) as unknown;
  if (Array.isArray(union)) {
    // Only a union with one object branch is unambiguous.
    const objects = union.map((s) => resolve(s, root)).filter((s): s is Json => !!s && isRecord(s.properties));
    return objects.length === 1 ? restore(value, objects[0], root, depth + 1) : false;
  }
  if (!isRecord(schema.properties)) return false;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  for (const [key, prop] of Object.entries(schema.properties)) {
    if (!(key in value)) continue;
    if (value[key] === null && !required.has(key) && !acceptsNull(resolve(prop, root))) {
      delete value[key];
      changed = true;
    } else changed = restore(value[key], prop, root, depth + 1) || changed;
  }
  return changed;
}
