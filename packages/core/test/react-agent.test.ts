import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ReActAgent, Runner, hooks, tool, toolResultsOf, type ModelResponse, type Tool } from '@replan/core';
import { ScriptedModel, callTools, reply } from '@replan/core/testing';
import { collect } from './support.js';

const add = tool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

function setup(model: ScriptedModel, extra: Partial<ConstructorParameters<typeof ReActAgent>[0]> = {}, tools: Tool[] = [add]) {
  const agent = new ReActAgent({ name: 'assistant', model, tools, ...extra });
  return new Runner({ agent, appName: 'test' });
}

/** The tool results the model was shown in its `call`-th request. */
const shownResults = (model: ScriptedModel, call: number) => (model.requests[call]?.messages ?? []).flatMap((m) => toolResultsOf(m));

describe('ReActAgent', () => {
  it('runs tools, feeds results back and answers', async () => {
    const model = new ScriptedModel({ responses: [callTools({ name: 'add', args: { a: 2, b: 3 } }), 'The sum is 5.'] });
    const { result, events } = await collect(setup(model, { instruction: 'Use tools.' }).run({ userId: 'u', input: '2+3?' }));
    expect(result.status).toBe('completed');
    expect(result.output).toBe('The sum is 5.');
    expect(result.modelCalls).toBe(2);
    expect(result.usage.inputTokens).toBe(20);
    expect(model.requests[0]?.messages[0]).toEqual({ role: 'system', content: [{ type: 'text', text: 'Use tools.' }] });
    expect(model.requests[0]?.tools?.map((t) => t.name)).toEqual(['add']);
    expect(shownResults(model, 1)).toEqual([expect.objectContaining({ name: 'add', output: 5 })]);
    const final = events.find((e) => e.actions?.final);
    expect(final?.actions?.final).toEqual({ text: 'The sum is 5.' });
    expect(final?.author).toBe('assistant');
  });

  it('shows the model null, not an empty or missing result, for a tool that returns undefined (issue 10)', async () => {
    const log = tool({ name: 'log', description: 'logs', parameters: z.object({}), execute: () => undefined });
    const model = new ScriptedModel({ responses: [callTools({ name: 'log', args: {} }), 'logged'] });
    const { result, events } = await collect(setup(model, {}, [log]).run({ userId: 'u', input: 'x' }));
    expect(result.status).toBe('completed');
    const [shown] = shownResults(model, 1);
    expect(shown).toEqual({ type: 'tool_result', toolCallId: expect.any(String), name: 'log', output: null });
    // Stored the same way, so a resumed run shows the model the same thing.
    expect(events.flatMap((e) => toolResultsOf(e.message)).map((r) => r.output)).toEqual([null]);
  });

  it('turns invalid tool arguments into an error result the model can fix', async () => {
    let executed = 0;
    const strict = tool({
      name: 'add',
      description: '',
      parameters: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }) => (executed++, a + b),
    });
    const model = new ScriptedModel({
      responses: [callTools({ name: 'add', args: { a: 'two', b: 3 } }), callTools({ name: 'add', args: { a: 2, b: 3 } }), 'five'],
    });
    const { result } = await collect(setup(model, {}, [strict]).run({ userId: 'u', input: 'x' }));
    expect(result.status).toBe('completed');
    const [bad] = shownResults(model, 1);
    expect(bad).toMatchObject({ isError: true, name: 'add' });
    expect(String(bad?.output)).toMatch(/invalid arguments for "add": a: /);
    expect(executed).toBe(1);
  });

  it('answers an unknown tool name with an error result listing the tools', async () => {
    const model = new ScriptedModel({ responses: [callTools({ name: 'multiply', args: {} }), 'sorry'] });
    const { result } = await collect(setup(model).run({ userId: 'u', input: 'x' }));
    expect(result.status).toBe('completed');
    const [r] = shownResults(model, 1);
    expect(r).toMatchObject({ isError: true, name: 'multiply' });
    expect(String(r?.output)).toMatch(/unknown tool "multiply". Available tools: add/);
  });

  it('answers arguments that were not valid JSON with an error result', async () => {
    const model = new ScriptedModel({
      responses: [
        {
          role: 'assistant',
          content: [{ type: 'tool_call', id: 'c1', name: 'add', args: {}, rawArgs: '{"a":', argsError: 'Unexpected end of JSON input' }],
        },
        'ok',
      ],
    });
    const { result } = await collect(setup(model).run({ userId: 'u', input: 'x' }));
    expect(result.status).toBe('completed');
    expect(String(shownResults(model, 1)[0]?.output)).toMatch(/not valid JSON/);
  });

  it('turns a throwing tool into an error result and goes on', async () => {
    const boom = tool({
      name: 'boom',
      description: '',
      parameters: z.object({}),
      execute: () => {
        throw new Error('disk full');
      },
    });
    const model = new ScriptedModel({ responses: [callTools({ name: 'boom' }), 'it failed'] });
    const { result } = await collect(setup(model, {}, [boom]).run({ userId: 'u', input: 'x' }));
    expect(result.status).toBe('completed');
    expect(shownResults(model, 1)[0]).toMatchObject({ isError: true, output: 'Error: tool "boom" failed: disk full' });
  });

  it('fails the run with a typed error when the model throws, storing an error event', async () => {
    const model = new ScriptedModel({ responses: [new Error('503 upstream')] });
    const runner = setup(model);
    const { result } = await collect(runner.run({ userId: 'u', input: 'x', sessionId: 's' }));
    expect(result.status).toBe('failed');
    expect(result.error?.name).toBe('ModelCallError');
    expect(result.error?.message).toMatch(/503 upstream/);
    const session = await runner.sessionStore.get({ appName: 'test', userId: 'u', id: 's' });
    expect(session?.events.at(-1)?.error).toMatchObject({ name: 'ModelCallError' });
  });

  it('asks again once after an empty answer following tool calls, then answers', async () => {
    const model = new ScriptedModel({ responses: [callTools({ name: 'add', args: { a: 1, b: 1 } }), reply(''), 'two'] });
    const { result } = await collect(setup(model).run({ userId: 'u', input: 'x' }));
    expect(result.status).toBe('completed');
    expect(result.output).toBe('two');
    const nudge = model.requests[2]?.messages.at(-1);
    expect(nudge?.role).toBe('user');
    expect(JSON.stringify(nudge)).toMatch(/empty/);
  });

  it('fails clearly when the model answers empty twice in a row — never a silent final answer', async () => {
    const model = new ScriptedModel({ responses: [callTools({ name: 'add', args: { a: 1, b: 1 } }), reply(''), reply('   ')] });
    const { result, events } = await collect(setup(model).run({ userId: 'u', input: 'x' }));
    expect(result.status).toBe('failed');
    expect(result.error?.name).toBe('EmptyModelResponseError');
    expect(result.output).toBeUndefined();
    expect(events.some((e) => e.actions?.final)).toBe(false);
  });

  it('ends max_iterations with a stored MaxIterationsError event when the model never stops calling tools', async () => {
    const model = new ScriptedModel({ respond: () => callTools({ name: 'add', args: { a: 1, b: 1 } }) });
    const runner = setup(model, { maxIterations: 3 });
    const { result } = await collect(runner.run({ userId: 'u', input: 'loop', sessionId: 'm' }));
    expect(result.status).toBe('max_iterations');
    expect(result.error?.name).toBe('MaxIterationsError');
    expect(model.calls).toBe(3);
    const session = await runner.sessionStore.get({ appName: 'test', userId: 'u', id: 'm' });
    const last = session?.events.at(-1);
    expect(last?.error?.name).toBe('MaxIterationsError');
    expect(last?.actions?.invocationEnd?.status).toBe('max_iterations');
    // The tool results of all three turns are kept.
    expect(session?.events.filter((e) => e.message?.role === 'tool').length).toBe(3);
  });

  it('stores the answer under outputKey', async () => {
    const model = new ScriptedModel({ responses: ['Paris'] });
    const runner = setup(model, { outputKey: 'capital' });
    const { result } = await collect(runner.run({ userId: 'u', input: 'capital of France?', sessionId: 'k' }));
    expect((await runner.sessionStore.get({ appName: 'test', userId: 'u', id: result.sessionId }))?.state.capital).toBe('Paris');
  });

  it('validates a structured answer against outputSchema, repairing an invalid one', async () => {
    const schema = z.object({ city: z.string(), population: z.number() });
    const model = new ScriptedModel({ responses: ['{"city":"Paris"}', '```json\n{"city":"Paris","population":2100000}\n```'] });
    const { result } = await collect(setup(model, { outputSchema: schema, outputKey: 'answer' }).run({ userId: 'u', input: 'x' }));
    expect(result.status).toBe('completed');
    expect(result.structured).toEqual({ city: 'Paris', population: 2100000 });
    expect(model.requests[0]?.responseFormat?.schema).toMatchObject({ type: 'object', required: ['city', 'population'] });
    expect(JSON.stringify(model.requests[1]?.messages.at(-1))).toMatch(/population/);
  });

  it('fails with OutputValidationError after two failed repairs', async () => {
    const model = new ScriptedModel({ respond: () => 'not json' });
    const { result } = await collect(setup(model, { outputSchema: z.object({ a: z.number() }) }).run({ userId: 'u', input: 'x' }));
    expect(result.status).toBe('failed');
    expect(result.error?.name).toBe('OutputValidationError');
    expect(model.calls).toBe(3);
  });

  it('lets hooks short-circuit the model and tools, and replace outputs', async () => {
    const model = new ScriptedModel({
      responses: [callTools({ name: 'add', args: { a: 1, b: 2 } }), callTools({ name: 'add', args: { a: 5, b: 5 } })],
    });
    const seen: string[] = [];
    const callbacks = {
      beforeModel: (ctx: { iteration: number }): ModelResponse | undefined =>
        ctx.iteration === 2 ? { message: reply('hooked answer'), finishReason: 'stop' } : undefined,
      beforeTool: (_ctx: unknown, args: unknown) => ((args as { a: number }).a === 5 ? 'cached' : undefined),
      afterTool: (_ctx: unknown, output: unknown) => (seen.push(String(output)), typeof output === 'number' ? output * 10 : undefined),
    };
    const { result } = await collect(setup(model, { middleware: [hooks(callbacks)] }).run({ userId: 'u', input: 'x' }));
    expect(result.output).toBe('hooked answer');
    expect(model.calls).toBe(2);
    expect(seen).toEqual(['3', 'cached']);
    expect(shownResults(model, 1)[0]?.output).toBe(30);
  });

  it('lets onError recover a failed model call and a failed tool', async () => {
    const flaky = tool({
      name: 'flaky',
      description: '',
      parameters: z.object({}),
      execute: () => {
        throw new Error('nope');
      },
    });
    const model = new ScriptedModel({ responses: [callTools({ name: 'flaky' }), new Error('down')] });
    const callbacks = {
      onError: (_ctx: unknown, _error: unknown, site: { stage: string }) =>
        site.stage === 'tool' ? 'fallback value' : { message: reply('recovered'), finishReason: 'stop' as const },
    };
    const agent = new ReActAgent({ name: 'a', model, tools: [flaky], middleware: [hooks(callbacks)] });
    const { result } = await collect(new Runner({ agent, appName: 't' }).run({ userId: 'u', input: 'x' }));
    expect(result.output).toBe('recovered');
    expect(shownResults(model, 1)[0]).toEqual(expect.objectContaining({ output: 'fallback value' }));
    expect(shownResults(model, 1)[0]?.isError).toBeUndefined();
  });

  it('streams partial events that are shown but never stored', async () => {
    const model = new ScriptedModel({ responses: ['A fairly long streamed answer.'], chunkSize: 5 });
    const runner = setup(model);
    const { events, result } = await collect(runner.run({ userId: 'u', input: 'x', stream: true, sessionId: 'st' }));
    const partials = events.filter((e) => e.partial);
    expect(partials.length).toBeGreaterThan(3);
    expect(partials.map((e) => (e.message?.content[0] as { text: string } | undefined)?.text).join('')).toBe(
      'A fairly long streamed answer.',
    );
    const stored = (await runner.sessionStore.get({ appName: 'test', userId: 'u', id: 'st' }))?.events ?? [];
    expect(stored.some((e) => e.partial)).toBe(false);
    expect(result.output).toBe('A fairly long streamed answer.');
  });

  it('writes tool state changes into the tool result event', async () => {
    const remember = tool({
      name: 'remember',
      description: '',
      parameters: z.object({ fact: z.string() }),
      execute: ({ fact }, ctx) => {
        ctx.state.set('fact', fact);
        ctx.state.set('temp:scratch', 'x');
        return ctx.state.get('fact');
      },
    });
    const model = new ScriptedModel({ responses: [callTools({ name: 'remember', args: { fact: 'sky is blue' } }), 'noted'] });
    const runner = setup(model, {}, [remember]);
    const { result } = await collect(runner.run({ userId: 'u', input: 'x', sessionId: 'sd' }));
    const session = await runner.sessionStore.get({ appName: 'test', userId: 'u', id: result.sessionId });
    expect(session?.state.fact).toBe('sky is blue');
    expect(session?.state['temp:scratch']).toBeUndefined();
    expect(shownResults(model, 1)[0]?.output).toBe('sky is blue');
  });
});

describe('ReActAgent inputMessages', () => {
  it("replaces the session history with computed input, keeping the agent's own turn", async () => {
    const model = new ScriptedModel({ responses: [callTools({ name: 'add', args: { a: 1, b: 1 } }), 'two'] });
    const agent = new ReActAgent({
      name: 'computed',
      model,
      tools: [add],
      instruction: 'sys',
      inputMessages: (ctx) => [{ role: 'user', content: [{ type: 'text', text: `state says ${String(ctx.state.topic)}` }] }],
    });
    const runner = new Runner({ agent, appName: 'x' });
    const r = await runner.run({ userId: 'u', input: 'the raw user text', state: { topic: 'sums' } }).result();
    expect(r.output).toBe('two');
    const first = model.requests[0]?.messages ?? [];
    expect(first.map((m) => m.role)).toEqual(['system', 'user']);
    expect(JSON.stringify(first)).toMatch(/state says sums/);
    expect(JSON.stringify(first)).not.toMatch(/raw user text/);
    // the second call adds the agent's own tool call and its result after the computed input
    expect(model.requests[1]?.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
  });
});
