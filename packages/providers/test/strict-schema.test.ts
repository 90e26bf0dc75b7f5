import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError } from '@replan/core';
import { restoreOptionalText } from '../src/schema/restore-optional.js';
import { toStrictJsonSchema } from '../src/schema/strict-json-schema.js';

describe('toStrictJsonSchema', () => {
  it('requires every property, makes optional ones nullable, closes every object, drops defaults', () => {
    const schema = z.object({
      title: z.string().describe('The title'),
      note: z.string().optional().describe('A note'),
      score: z.number().nullable(),
      tag: z.enum(['a', 'b']).optional(),
      size: z.number().default(3),
      meta: z.looseObject({ source: z.string() }),
      items: z.array(z.object({ id: z.string(), qty: z.number().optional() })),
    });
    expect(toStrictJsonSchema(schema, 'answer')).toEqual({
      type: 'object',
      properties: {
        title: { type: 'string', description: 'The title' },
        note: { description: 'A note', anyOf: [{ type: 'string' }, { type: 'null' }] },
        score: { type: ['number', 'null'] },
        tag: { anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'null' }] },
        size: { type: 'number' },
        meta: { type: 'object', properties: { source: { type: 'string' } }, required: ['source'], additionalProperties: false },
        items: {
          type: 'array',
          items: {
            type: 'object',
            properties: { id: { type: 'string' }, qty: { anyOf: [{ type: 'number' }, { type: 'null' }] } },
            required: ['id', 'qty'],
            additionalProperties: false,
          },
        },
      },
      required: ['title', 'note', 'score', 'tag', 'size', 'meta', 'items'],
      additionalProperties: false,
    });
  });

  it('turns oneOf (discriminated unions) into anyOf and keeps recursive $refs', () => {
    const shape = z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('circle'), r: z.number() }),
      z.object({ kind: z.literal('square'), side: z.number() }),
    ]);
    const Node = z.object({
      name: z.string(),
      get children(): z.ZodArray<typeof Node> {
        return z.array(Node);
      },
    });
    const out = toStrictJsonSchema(z.object({ shape, tree: Node }), 's') as any;
    expect(out.properties.shape.oneOf).toBeUndefined();
    expect(out.properties.shape.anyOf).toHaveLength(2);
    expect(out.properties.shape.anyOf[0].additionalProperties).toBe(false);
    expect(JSON.stringify(out)).toContain('"$ref"');
  });

  it('accepts a JSON Schema as well as a zod schema, without changing its input', () => {
    const json = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { a: { type: 'string' } } };
    const copy = structuredClone(json);
    expect(toStrictJsonSchema(json, 'j')).toEqual({
      type: 'object',
      properties: { a: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
      required: ['a'],
      additionalProperties: false,
    });
    expect(json).toEqual(copy);
  });

  const rejected: [string, unknown, RegExp][] = [
    ['a record', z.object({ scores: z.record(z.string(), z.number()) }), /records/],
    ['a tuple', z.object({ pair: z.tuple([z.string(), z.number()]) }), /tuples/],
    ['a root union', z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]), /root is a union/],
    ['a non-object root', z.array(z.string()), /root must be an object/],
    ['an empty schema', {}, /empty/],
    ['only a description', { description: 'anything' }, /empty/],
    ['an object without properties', z.object({}), /no properties/],
    ['z.any()', z.object({ x: z.any() }), /no type/],
    ['z.date()', z.object({ when: z.date() }), /no type/],
    ['a free-form object', z.object({ bag: z.looseObject({}) }), /free-form/],
    ['allOf', { type: 'object', properties: { a: { allOf: [{ type: 'string' }, { minLength: 1 }] } } }, /allOf/],
  ];
  for (const [name, schema, message] of rejected)
    it(`rejects ${name} up front with a clear error`, () => {
      let error: unknown;
      try {
        toStrictJsonSchema(schema, 'answer');
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toMatch(/cannot be used for strict structured output/);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).toContain('"answer"');
    });

  it('names the place of a nested problem', () => {
    expect(() => toStrictJsonSchema(z.object({ a: z.object({ b: z.record(z.string(), z.string()) }) }), 'x')).toThrow(/at a\.b/);
  });

  it('rejects a zod v3-looking schema with advice', () => {
    const v3 = { _def: { typeName: 'ZodObject' }, safeParse: () => ({}) };
    expect(() => toStrictJsonSchema(v3, 'x')).toThrow(/zod v3/);
  });
});

describe('restoreOptionalText', () => {
  const original = z.toJSONSchema(
    z.object({
      a: z.string().optional(),
      b: z.string().nullable(),
      nested: z.object({ c: z.number().optional() }),
      list: z.array(z.object({ d: z.boolean().optional() })),
    }),
  ) as Record<string, unknown>;

  it('removes the nulls strict mode forced on optional properties, keeping real nulls', () => {
    const text = JSON.stringify({ a: null, b: null, nested: { c: null }, list: [{ d: null }, { d: true }] });
    const restored = JSON.parse(restoreOptionalText(text, original));
    expect(restored).toEqual({ b: null, nested: {}, list: [{}, { d: true }] });
    const zod = z.object({
      a: z.string().optional(),
      b: z.string().nullable(),
      nested: z.object({ c: z.number().optional() }),
      list: z.array(z.object({ d: z.boolean().optional() })),
    });
    expect(zod.safeParse(restored).success).toBe(true);
  });

  it('leaves text that is not JSON, or needs no change, exactly as it was', () => {
    expect(restoreOptionalText('not json', original)).toBe('not json');
    const text = '{ "b": "x", "nested": {}, "list": [] }';
    expect(restoreOptionalText(text, original)).toBe(text);
  });
});
