import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { ConfigurationError, jsonSchema, ReActAgent, Runner, tool, toolResultsOf, type SchemaInput, type Tool } from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';
import { collect } from './support.js';
import type { SchemaIssue } from '../src/tools/schemas/schema-input.js';

/** Runs one tool call with `args`, then an answer; returns what the model was sent and shown. */
async function callWith(t: Tool, args: Record<string, unknown>) {
  const model = new ScriptedModel({ responses: [callTools({ name: t.name, args, id: 'c1' }), 'done'] });
  const runner = new Runner({ agent: new ReActAgent({ name: 'agent', model, tools: [t] }), appName: 'schemas' });
  const { result } = await collect(runner.run({ userId: 'u', input: 'go' }));
  expect(result.status).toBe('completed');
  const shown = (model.requests[1]?.messages ?? []).flatMap((m) => toolResultsOf(m))[0];
  return { sent: model.requests[0]?.tools?.[0]?.parameters, shown };
}

describe('tool() with the schemas users already have', () => {
  it('zod v4 (as before): JSON Schema from z.toJSONSchema, arguments parsed, errors name the kind and path', async () => {
    const seen: unknown[] = [];
    const t = tool({
      name: 'search',
      description: 'd',
      parameters: z.object({ q: z.string(), limit: z.number().default(3) }),
      execute: (a) => (seen.push(a), 'ok'),
    });
    expect(t.schemaKind).toBe('zod v4 schema');
    const ok = await callWith(t, { q: 'x' });
    expect(ok.sent).toEqual({
      type: 'object',
      properties: { q: { type: 'string' }, limit: { type: 'number', default: 3 } },
      required: ['q'],
    });
    expect(seen).toEqual([{ q: 'x', limit: 3 }]);
    const bad = await callWith(t, { q: 1 });
    expect(bad.shown).toMatchObject({ isError: true });
    expect(String(bad.shown?.output)).toMatch(/invalid arguments for "search": q: .* \(its parameters are a zod v4 schema\)/);
  });

  it('zod v3 (zod/v3): JSON Schema via zod-to-json-schema, validated by the schema itself', async () => {
    const seen: unknown[] = [];
    const parameters = z3.object({ q: z3.string().describe('what to find'), limit: z3.number().int().default(5) });
    const t = tool({ name: 'search', description: 'd', parameters, execute: (a) => (seen.push(a), 'ok') });
    expect(t.schemaKind).toBe('zod v3 schema');
    const ok = await callWith(t, { q: 'x' });
    expect(ok.sent).toEqual({
      type: 'object',
      properties: { q: { type: 'string', description: 'what to find' }, limit: { type: 'integer', default: 5 } },
      required: ['q'],
      additionalProperties: false,
    });
    expect(seen).toEqual([{ q: 'x', limit: 5 }]); // v3's own parse applied its default
    const bad = await callWith(t, { q: 7 });
    expect(String(bad.shown?.output)).toBe(
      'Error: invalid arguments for "search": q: Expected string, received number (its parameters are a zod v3 schema). Fix the arguments and call the tool again.',
    );
    expect(seen).toHaveLength(1);
  });

  it('plain JSON Schema without a validator: sent as given; the type and required properties are checked', async () => {
    const seen: unknown[] = [];
    const t = tool({
      name: 'lookup',
      description: 'd',
      parameters: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { id: { type: 'string' }, n: { type: 'integer' } },
        required: ['id'],
      },
      execute: (a) => (seen.push(a), 'ok'),
    });
    expect(t.schemaKind).toBe('JSON Schema');
    const ok = await callWith(t, { id: 'a', n: 2 });
    expect(ok.sent).toEqual({ type: 'object', properties: { id: { type: 'string' }, n: { type: 'integer' } }, required: ['id'] });
    expect(seen).toEqual([{ id: 'a', n: 2 }]);
    expect(String((await callWith(t, { n: 2 })).shown?.output)).toMatch(
      /invalid arguments for "lookup": id: required property missing \(its parameters are a JSON Schema\)/,
    );
    expect(String((await callWith(t, { id: 'a', n: 1.5 })).shown?.output)).toMatch(
      /n: expected integer, got number \(its parameters are a JSON Schema\)/,
    );
    expect(seen).toHaveLength(1);
  });

  it('JSON Schema with a validator: the validator decides, its issues are named by path; the args type is given', async () => {
    const calls: unknown[] = [];
    const validate = (value: unknown): SchemaIssue[] => {
      calls.push(value);
      const email = (value as { email?: unknown }).email;
      return typeof email === 'string' && email.includes('@') ? [] : [{ path: ['email'], message: 'must be an email address' }];
    };
    const seen: string[] = [];
    const t = tool({
      name: 'invite',
      description: 'd',
      parameters: jsonSchema<{ email: string }>(
        { type: 'object', properties: { email: { type: 'string', format: 'email' } }, required: ['email'] },
        validate,
      ),
      execute: ({ email }) => (seen.push(email), 'invited'),
    });
    expect(t.schemaKind).toBe('JSON Schema');
    expect((await callWith(t, { email: 'a@b.c' })).sent).toEqual({
      type: 'object',
      properties: { email: { type: 'string', format: 'email' } },
      required: ['email'],
    });
    expect(String((await callWith(t, { email: 'nope' })).shown?.output)).toMatch(
      /invalid arguments for "invite": email: must be an email address \(its parameters are a JSON Schema\)/,
    );
    expect(seen).toEqual(['a@b.c']);
    expect(calls).toEqual([{ email: 'a@b.c' }, { email: 'nope' }]);
  });

  it.each([
    ['a plain object that is not a JSON Schema', { city: 'string' }, /got an object with keys city \(not a JSON Schema/],
    ['an empty object', {}, /got an empty object/],
    ['a string', 'z.object()', /got string "z.object\(\)"/],
    ['null', null, /got null/],
    ['an array', [{ type: 'string' }], /got an array/],
    ['a function', () => z.object({}), /got a function/],
    [
      'jsonSchema() around a non-schema',
      jsonSchema({ city: 'string' } as never),
      /jsonSchema\(schema\) needs a JSON Schema object; got an object with keys city/,
    ],
  ])('%s as parameters is a ConfigurationError naming what was given', (_what, parameters, message) => {
    const make = () => tool({ name: 'x', description: '', parameters: parameters as never, execute: () => 1 });
    expect(make).toThrow(ConfigurationError);
    expect(make).toThrow(/Tool "x": parameters/);
    expect(make).toThrow(message);
  });

  it.each([
    ['zod v4', z.string(), /got string \(zod v4 schema\)/],
    ['zod v3', z3.array(z3.string()), /got array \(zod v3 schema\)/],
    ['JSON Schema', { type: 'string' }, /got string \(JSON Schema\)/],
  ])('a %s schema of something other than an object is refused', (_kind, parameters, message) => {
    expect(() => tool({ name: 'x', description: '', parameters: parameters as never, execute: () => 1 })).toThrow(message);
  });
});

describe('outputSchema with the schemas users already have', () => {
  const run = async (outputSchema: SchemaInput, responses: string[]) => {
    const model = new ScriptedModel({ responses });
    const runner = new Runner({ agent: new ReActAgent({ name: 'agent', model, outputSchema }), appName: 'schemas' });
    const { result } = await collect(runner.run({ userId: 'u', input: 'go' }));
    return { model, result, repair: JSON.stringify(model.requests[1]?.messages.at(-1) ?? null) };
  };

  it('zod v3: response format from zod-to-json-schema, repaired with the kind and path named', async () => {
    const { model, result, repair } = await run(z3.object({ city: z3.string(), population: z3.number() }), [
      '{"city":"Lyon","population":"many"}',
      '{"city":"Lyon","population":520000}',
    ]);
    expect(result.structured).toEqual({ city: 'Lyon', population: 520000 });
    expect(model.requests[0]?.responseFormat?.schema).toMatchObject({ type: 'object', required: ['city', 'population'] });
    expect(repair).toMatch(/population: Expected number, received string \(the outputSchema is a zod v3 schema\)/);
  });

  it('JSON Schema with a validator: the validator decides', async () => {
    const validate = (v: unknown): SchemaIssue[] =>
      ((v as { score?: number }).score ?? -1) >= 0 ? [] : [{ path: ['score'], message: 'must be at least 0' }];
    const { result, repair, model } = await run(
      jsonSchema({ type: 'object', properties: { score: { type: 'number' } }, required: ['score'] }, validate),
      ['{"score":-2}', '{"score":4}'],
    );
    expect(result.structured).toEqual({ score: 4 });
    expect(model.requests[0]?.responseFormat?.schema).toEqual({
      type: 'object',
      properties: { score: { type: 'number' } },
      required: ['score'],
    });
    expect(repair).toMatch(/score: must be at least 0 \(the outputSchema is a JSON Schema\)/);
  });

  it('an outputSchema that is not a schema is a ConfigurationError naming what was given', () => {
    const model = new ScriptedModel({ responses: [] });
    expect(() => new ReActAgent({ name: 'agent', model, outputSchema: { answer: 'string' } as never })).toThrow(
      /ReActAgent "agent": outputSchema must be a zod v4 schema, a zod v3 schema, a JSON Schema object or jsonSchema\(schema, validate\); got an object with keys answer/,
    );
  });
});

describe('zod v3 without zod-to-json-schema installed', () => {
  it('is a ConfigurationError saying what to install', async () => {
    const { zodV3JsonSchema } = await import('../src/tools/schemas/zod-v3-json-schema.js');
    const missing = () => {
      throw Object.assign(new Error("Cannot find module 'zod-to-json-schema'\nRequire stack: …"), { code: 'MODULE_NOT_FOUND' });
    };
    const make = () => zodV3JsonSchema(z3.object({ q: z3.string() }) as never, 'Tool "search": parameters', missing);
    expect(make).toThrow(ConfigurationError);
    expect(make).toThrow(
      /Tool "search": parameters is a zod v3 schema: install the zod-to-json-schema package \(npm install zod-to-json-schema\).*\(Cannot find module 'zod-to-json-schema'\)$/,
    );
  });
});
