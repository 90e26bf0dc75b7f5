import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError, tool } from '@replan/core';

describe('tool()', () => {
  it('makes the JSON Schema of its zod parameters', () => {
    const t = tool({
      name: 'search',
      description: 'Search documents',
      parameters: z.object({ query: z.string().describe('what to look for'), limit: z.number().int().optional() }),
      execute: () => [],
    });
    expect(t.jsonSchema).toMatchObject({
      type: 'object',
      properties: { query: { type: 'string', description: 'what to look for' }, limit: { type: 'integer' } },
      required: ['query'],
    });
    expect(t.jsonSchema.$schema).toBeUndefined();
  });

  it('rejects a name providers would refuse', () => {
    expect(() => tool({ name: 'bad name!', description: '', parameters: z.object({}), execute: () => 1 })).toThrow(ConfigurationError);
  });

  it('rejects non-object parameters and non-zod schemas with a clear error', () => {
    expect(() => tool({ name: 'x', description: '', parameters: z.string(), execute: () => 1 })).toThrow(/z\.object/);
    // Issue 15: a JSON Schema object is accepted now; an object that is no schema at all is refused.
    expect(() => tool({ name: 'y', description: '', parameters: { kind: 'object' } as never, execute: () => 1 })).toThrow(/zod v4/);
  });

  it('tells a tool written the AI SDK way (inputSchema) to use parameters', () => {
    const aiSdkStyle = { name: 'weather', description: 'Weather of a city', inputSchema: z.object({ city: z.string() }), execute: () => 1 };
    expect(() => tool(aiSdkStyle as never)).toThrow(ConfigurationError);
    expect(() => tool(aiSdkStyle as never)).toThrow(
      /Tool "weather": replan's tool\(\) takes the arguments' schema as `parameters`, not `inputSchema`/,
    );
    // The AI SDK's tool has no name either: the message is about the schema still.
    const { name: _name, ...nameless } = aiSdkStyle;
    expect(() => tool(nameless as never)).toThrow(/^Tool: replan's tool\(\) takes .* `parameters`, not `inputSchema`/);
  });
});
