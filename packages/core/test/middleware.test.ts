import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError, type Middleware, type ModelRequest, ReActAgent, Runner, messageText, tool, userMessage } from '@replan/core';
import { ScriptedModel, callTools, testMiddleware } from '@replan/core/testing';

const echo = tool({ name: 'echo', description: 'echo', parameters: z.object({ text: z.string() }), execute: ({ text }) => text });

/** A middleware that logs where it is, to see the onion's order. */
function tracer(name: string, log: string[]): Middleware {
  return {
    name,
    prepareRequest(request) {
      log.push(`${name}:prepare`);
      return { ...request, messages: [...request.messages, userMessage(`[${name}]`)] };
    },
    async wrapModelCall(next, request) {
      log.push(`${name}:before-model`);
      const response = await next(request);
      log.push(`${name}:after-model`);
      return response;
    },
    async wrapToolCall(next, call) {
      log.push(`${name}:before-tool`);
      const outcome = await next(call);
      log.push(`${name}:after-tool`);
      return { ...outcome, output: `${name}(${String(outcome.output)})` };
    },
  };
}

describe('middleware', () => {
  it('compose as an onion: the first is the outermost around the model call and each tool call', async () => {
    const log: string[] = [];
    const run = await testMiddleware([tracer('outer', log), tracer('inner', log)], {
      model: [callTools({ name: 'echo', args: { text: 'hi' } }), 'done'],
      tools: [echo],
    });
    expect(run.result.status).toBe('completed');
    expect(log.slice(0, 6)).toEqual([
      'outer:prepare',
      'outer:before-model',
      'inner:prepare',
      'inner:before-model',
      'inner:after-model',
      'outer:after-model',
    ]);
    expect(log.slice(6, 10)).toEqual(['outer:before-tool', 'inner:before-tool', 'inner:after-tool', 'outer:after-tool']);
    // The model got the request as both rewrote it, outer first; the tool's result as both wrapped it.
    expect(run.requests[0]?.messages.slice(-2).map(messageText)).toEqual(['[outer]', '[inner]']);
    expect(run.toolResults[0]?.output).toBe('outer(inner(hi))');
  });

  it('add tools, and a name the agent already has is a ConfigurationError', async () => {
    const extra = tool({ name: 'extra', description: 'extra', parameters: z.object({}), execute: () => 'from middleware' });
    const run = await testMiddleware({ name: 'adds', tools: [extra] }, { model: [callTools({ name: 'extra' }), 'ok'], tools: [echo] });
    expect(run.requests[0]?.tools?.map((t) => t.name)).toEqual(['echo', 'extra']);
    expect(run.toolResults[0]?.output).toBe('from middleware');
    const model = new ScriptedModel();
    expect(() => new ReActAgent({ name: 'a', model, tools: [echo], middleware: [{ name: 'twice', tools: [echo] }] })).toThrow(
      ConfigurationError,
    );
    expect(() => new ReActAgent({ name: 'a', model, middleware: [{} as Middleware] })).toThrow(/needs a name/);
  });

  it('record events that a resumed run reads back, so the work is not done again', async () => {
    let summaries = 0;
    // Writes a "summary" once per run of the agent, and reuses the recorded one after a resume.
    const summarizing: Middleware = {
      name: 'summary',
      async prepareRequest(request, ctx) {
        let summary = ctx.recorded('summary').at(-1)?.meta?.summary as string | undefined;
        if (summary === undefined) {
          summary = `summary #${++summaries}`;
          ctx.record({ meta: { summary } });
        }
        return { ...request, messages: [...request.messages, userMessage(summary)] };
      },
    };
    const ask = tool({
      name: 'ask',
      description: 'ask a human',
      parameters: z.object({}),
      execute: (_args, ctx) => ctx.interrupt<string>({ question: 'ok?' }),
    });
    const first = await testMiddleware(summarizing, { model: [callTools({ name: 'ask', id: 'c1' }), 'finished'], tools: [ask] });
    expect(first.result.status).toBe('interrupted');
    expect(first.recorded('summary')).toHaveLength(1);
    expect(first.recorded('summary')[0]?.meta).toEqual({ summary: 'summary #1', middleware: 'summary' });
    const resumed = await first.resume({ 'c1:1': 'yes' });
    expect(resumed.result.status).toBe('completed');
    expect(summaries).toBe(1); // not done again on resume
    expect(resumed.recorded('summary')).toHaveLength(1);
    expect(messageText(resumed.requests[0]?.messages.at(-1))).toBe('summary #1');
  });

  it('recorded events are stored before the model answer they came before', async () => {
    const marker: Middleware = {
      name: 'marker',
      async wrapModelCall(next, request, ctx) {
        ctx.record({ meta: { kind: 'marker', iteration: ctx.iteration } });
        return next(request);
      },
    };
    const run = await testMiddleware(marker, { model: [callTools({ name: 'echo', args: { text: 'a' } }), 'done'], tools: [echo] });
    const kinds = run.events.filter((e) => e.author === 'agent' && !e.actions?.invocationEnd).map((e) => e.meta?.kind ?? e.message?.role);
    expect(kinds).toEqual(['marker', 'assistant', 'tool', 'marker', 'assistant']);
    expect(run.recorded('marker').map((e) => e.meta?.iteration)).toEqual([0, 1]);
  });

  it('write state that is stored with the agent’s next event, and see the agent, model and invocation', async () => {
    const seen: unknown[] = [];
    const counter: Middleware = {
      name: 'counter',
      prepareRequest(request, ctx) {
        ctx.state.set('calls', ((ctx.state.get('calls') as number | undefined) ?? 0) + 1);
        seen.push([ctx.agentName, ctx.path, ctx.model.id, ctx.invocation.invocationId === ctx.invocationId]);
        return request;
      },
    };
    const run = await testMiddleware(counter, { model: [callTools({ name: 'echo', args: { text: 'a' } }), 'done'], tools: [echo] });
    expect(run.events.at(-1)?.actions?.stateDelta ?? run.events.at(-2)?.actions?.stateDelta).toEqual({ calls: 2 });
    expect(seen[0]).toEqual(['agent', 'agent', 'scripted', true]);
  });

  it('wrap a tool call: skip it, or see what it threw and recover', async () => {
    let ran = 0;
    const failing = tool({
      name: 'failing',
      description: 'fails',
      parameters: z.object({ n: z.number() }),
      execute: ({ n }, ctx) => {
        ran++;
        ctx.state.set('lost', true); // a throwing tool stores none of its writes
        throw new Error(`boom ${n}`);
      },
    });
    const guard: Middleware = {
      name: 'guard',
      async wrapToolCall(next, call, ctx) {
        if ((ctx.args as { n: number }).n === 0) return { output: 'skipped', isError: false };
        const outcome = await next(call);
        if (outcome.error instanceof Error) {
          ctx.state.set('recovered', outcome.error.message);
          return { output: 'recovered', isError: false };
        }
        return outcome;
      },
    };
    const run = await testMiddleware(guard, {
      model: [callTools({ name: 'failing', args: { n: 0 } }, { name: 'failing', args: { n: 1 } }), 'done'],
      tools: [failing],
    });
    expect(ran).toBe(1);
    expect(run.toolResults.map((r) => [r.output, r.isError ?? false])).toEqual(
      expect.arrayContaining([
        ['skipped', false],
        ['recovered', false],
      ]),
    );
    const deltas = run.events.flatMap((e) => (e.actions?.stateDelta ? [e.actions.stateDelta] : []));
    expect(deltas).toEqual([{ recovered: 'boom 1' }]);
  });

  it('stream: partial events still reach the caller through wrapModelCall', async () => {
    const passthrough: Middleware = { name: 'pass', wrapModelCall: (next, request) => next(request) };
    const model = new ScriptedModel({ responses: ['a streamed answer'], chunkSize: 4 });
    const agent = new ReActAgent({ name: 's', model, middleware: [passthrough] });
    const run = new Runner({ agent, appName: 's' }).run({ userId: 'u', input: 'go', stream: true });
    const partials: string[] = [];
    for await (const e of run) if (e.partial && e.message) partials.push(messageText(e.message));
    expect((await run.result()).output).toBe('a streamed answer');
    expect(partials.join('')).toBe('a streamed answer');
  });

  it('a middleware that throws fails the run with its error; the model is not called', async () => {
    const broken: Middleware = {
      name: 'broken',
      prepareRequest: () => {
        throw new Error('no request today');
      },
    };
    const run = await testMiddleware(broken, { model: ['never'] });
    expect(run.result.status).toBe('failed');
    expect(run.result.error?.message).toBe('no request today');
    expect(run.model.calls).toBe(0);
  });

  it('an agent without middleware sends the request it built', async () => {
    const model = new ScriptedModel({ responses: ['ok'] });
    await new Runner({ agent: new ReActAgent({ name: 'plain', model, instruction: 'Be brief.' }), appName: 'p' })
      .run({ userId: 'u', input: 'hi' })
      .result();
    const request = model.requests[0] as ModelRequest;
    expect(request.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(request.cache).toBeUndefined();
  });
});
