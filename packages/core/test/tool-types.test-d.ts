import { describe, expectTypeOf, test } from 'vitest';
import { z } from 'zod';
import { jsonSchema, tool, type Tool, type ToolContext, type ToolResultContent } from '@replan/core';

const weatherArgs = z.object({
  city: z.string(),
  days: z.number().int().default(1),
  units: z.enum(['C', 'F']).optional(),
});

describe('tool() infers its arguments from the zod schema', () => {
  test('execute and needsApproval receive the parsed (output) type of `parameters`', () => {
    tool({
      name: 'weather',
      description: 'Forecast for a city',
      parameters: weatherArgs,
      needsApproval: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ city: string; days: number; units?: 'C' | 'F' | undefined }>();
        return args.days > 7;
      },
      execute: (args, ctx) => {
        // `days` has a default, so it is always there once parsed.
        expectTypeOf(args).toEqualTypeOf<{ city: string; days: number; units?: 'C' | 'F' | undefined }>();
        expectTypeOf(ctx).toEqualTypeOf<ToolContext>();
        return `${args.city}: sunny for ${args.days} days`;
      },
    });
  });

  test('a transform changes what execute receives, not what the model sends', () => {
    tool({
      name: 'count',
      description: '',
      parameters: z.object({ n: z.string().transform(Number) }),
      execute: ({ n }) => {
        expectTypeOf(n).toEqualTypeOf<number>();
        return n + 1;
      },
    });
  });

  test('the returned Tool carries the argument and output types', () => {
    const weather = tool({
      name: 'weather',
      description: '',
      parameters: z.object({ city: z.string() }),
      execute: ({ city }) => ({ city, tempC: 21 }),
    });
    expectTypeOf(weather).toEqualTypeOf<Tool<{ city: string }, { city: string; tempC: number }>>();
    expectTypeOf(weather.execute).parameter(0).toEqualTypeOf<{ city: string }>();
    expectTypeOf(weather.execute).returns.toEqualTypeOf<{ city: string; tempC: number } | Promise<{ city: string; tempC: number }>>();

    const slow = tool({
      name: 'slow',
      description: '',
      parameters: z.object({}),
      execute: async () => 42,
    });
    expectTypeOf(slow).toEqualTypeOf<Tool<Record<string, never>, number>>();
  });

  test('tools with different arguments share one Tool[] (what agents take)', () => {
    const a = tool({ name: 'a', description: '', parameters: z.object({ x: z.string() }), execute: ({ x }) => x });
    const b = tool({ name: 'b', description: '', parameters: z.object({ y: z.number() }), execute: ({ y }) => y });
    expectTypeOf([a, b]).toExtend<readonly Tool[]>();
  });

  test('wrong usage does not type-check', () => {
    tool({
      name: 'weather',
      description: '',
      parameters: weatherArgs,
      execute: (args) => {
        // @ts-expect-error `town` is not in the schema
        return args.town;
      },
    });

    tool({
      name: 'weather',
      description: '',
      parameters: weatherArgs,
      // @ts-expect-error `city` is a string in the schema, not a number
      execute: ({ city }: { city: number }) => city,
    });

    tool({
      name: 'weather',
      description: '',
      parameters: weatherArgs,
      execute: ({ city }) => {
        // @ts-expect-error a string has no toFixed
        return city.toFixed(1);
      },
    });

    tool({
      name: 'weather',
      description: '',
      // @ts-expect-error parameters must be a schema (issue 15: a JSON Schema object is accepted now, a string is not)
      parameters: 'city',
      execute: () => 'x',
    });

    // @ts-expect-error execute is required
    tool({ name: 'weather', description: '', parameters: weatherArgs });
  });
});

describe('tool() infers its arguments from zod v3 and JSON Schema too', () => {
  test('zod v3: the schema’s output type', async () => {
    const { z: z3 } = await import('zod/v3');
    const t = tool({
      name: 'search',
      description: '',
      parameters: z3.object({ q: z3.string(), limit: z3.number().default(5) }),
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ q: string; limit: number }>();
        return args.q;
      },
    });
    expectTypeOf(t).toEqualTypeOf<Tool<{ q: string; limit: number }, string>>();
  });

  test('plain JSON Schema: a JSON object; jsonSchema<T>(): T', () => {
    tool({
      name: 'lookup',
      description: '',
      parameters: { type: 'object', properties: { id: { type: 'string' } } },
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
        return 1;
      },
    });
    tool({
      name: 'invite',
      description: '',
      parameters: jsonSchema<{ email: string }>({ type: 'object' }, () => []),
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ email: string }>();
        return args.email;
      },
    });
    // @ts-expect-error a validator returns issues ({ path, message }[]), not a boolean
    jsonSchema({ type: 'object' }, () => true);
  });
});

describe('a tool may return content blocks', () => {
  test('an array of text, image and file blocks is its output type', async () => {
    const { imageFromBytes } = await import('@replan/core');
    const shot = tool({
      name: 'screenshot',
      description: 'Takes a screenshot',
      parameters: z.object({}),
      execute: (): ToolResultContent[] => [
        { type: 'text', text: 'the page' },
        imageFromBytes(new Uint8Array([0x89]), { mediaType: 'image/png' }),
      ],
    });
    expectTypeOf(shot).toEqualTypeOf<Tool<Record<string, never>, ToolResultContent[]>>();
    // A blob-backed or URL image is a ToolResultContent too; a block with two sources is not.
    expectTypeOf({ type: 'image', mediaType: 'image/png', blob: 'x', size: 1 } as const).toExtend<ToolResultContent>();
    expectTypeOf({ type: 'image', mediaType: 'image/png', url: 'x', data: 'y' } as const).not.toExtend<ToolResultContent>();
  });
});
