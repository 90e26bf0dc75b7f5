import { createRequire } from 'node:module';
import { ConfigurationError } from '../../errors/replan-error.js';
import type { ZodV3Schema } from './schema-input.js';

type Convert = (schema: unknown, options: Record<string, unknown>) => Record<string, unknown>;

const requireHere = createRequire(import.meta.url);

/** Loads `zod-to-json-schema` (an optional peer): only when a zod v3 schema is given, so apps without one never need it. */
const loadConverter = (): Convert => (requireHere('zod-to-json-schema') as { zodToJsonSchema: Convert }).zodToJsonSchema;

/**
 * A zod v3 schema's JSON Schema (inlined, no `$ref`, no `$schema`), made by `zod-to-json-schema`.
 * Without that package, a `ConfigurationError` saying what to install. `load` is replaceable for tests.
 */
export function zodV3JsonSchema(schema: ZodV3Schema, who: string, load: () => Convert = loadConverter): Record<string, unknown> {
  let convert: Convert;
  try {
    convert = load();
  } catch (error) {
    throw new ConfigurationError(
      `${who} is a zod v3 schema: install the zod-to-json-schema package (npm install zod-to-json-schema) to turn it into JSON Schema, or pass a zod v4 schema. (${(error as Error).message.split('\n')[0]})`,
      { cause: error },
    );
  }
  const json = { ...convert(schema, { $refStrategy: 'none' }) };
  delete json.$schema;
  return json;
}
