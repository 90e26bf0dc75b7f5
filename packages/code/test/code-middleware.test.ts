import { describe, expect, it } from 'vitest';
import {
  hooks,
  InMemorySessionStore,
  type Middleware,
  ReActAgent,
  Runner,
  type SessionStore,
  type Tool,
  toolResultsOf,
} from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { codeTool } from '@replan/code';
import { countingTools } from './support.js';

/** An audit middleware: the id and name of every tool call it wraps, and whether it ran. */
function audit(seen: string[]): Middleware {
  return {
    name: 'audit',
    async wrapToolCall(next, call) {
      const outcome = await next(call);
      seen.push(`${call.id}:${call.name}${outcome.isError ? ':error' : ''}`);
      return outcome;
    },
  };
}

/** A runner whose agent (with `middleware`) makes one code call `code1` running `program`. */
function runnerWith(program: string, tools: readonly Tool[], middleware: readonly Middleware[], store: SessionStore, resuming = false) {
  const call = callTools({ name: 'run_code', id: 'code1', args: { program } });
  const model = new ScriptedModel({ responses: resuming ? [] : [call], respond: () => 'done' });
  const agent = new ReActAgent({ name: 'agent', model, tools: [codeTool({ tools })], middleware });
  return { runner: new Runner({ agent, appName: 'code', sessionStore: store }), model };
}

const codeOutput = (model: ScriptedModel) => toolResultsOf(model.requests[1]?.messages.at(-1) as never)[0]?.output;

describe("a program's inner calls go through the agent's tool middleware", () => {
  it('an audit middleware sees every inner call once, with its inner id, and the code call itself', async () => {
    const seen: string[] = [];
    const runs: string[] = [];
    const program = 'const a = await tools.add({ a: 1, b: 2 });\nconst b = await tools.add({ a, b: 4 });\nreturn b;';
    const { runner, model } = runnerWith(program, countingTools(runs), [audit(seen)], new InMemorySessionStore());
    const result = await runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
    expect(result.status).toBe('completed');
    expect(codeOutput(model)).toEqual({ result: 7 });
    expect(seen).toEqual(['code1#0:add', 'code1#1:add', 'code1:run_code']);
  });

  it('a middleware that blocks a tool blocks it inside a program: the program reads the error, the tool never runs', async () => {
    const runs: string[] = [];
    const block: Middleware = {
      name: 'block-fail',
      wrapToolCall: (next, call) =>
        call.name === 'add' && (call.args as { a?: number }).a === 666
          ? Promise.resolve({ output: 'blocked by policy: add(666) is not allowed', isError: true })
          : next(call),
    };
    const program = 'try { await tools.add({ a: 666, b: 1 }); return "ran"; } catch (e) { return "caught: " + e.message; }';
    const { runner, model } = runnerWith(program, countingTools(runs), [block], new InMemorySessionStore());
    await runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
    expect(runs).toEqual([]);
    expect(codeOutput(model)).toEqual({ result: expect.stringContaining('caught: blocked by policy: add(666) is not allowed') });
  });

  it('hooks({ beforeTool }) sees inner calls and may skip them; afterTool sees their outputs', async () => {
    const runs: string[] = [];
    const before: string[] = [];
    const after: unknown[] = [];
    const mw = hooks({
      beforeTool: (ctx, args) => {
        before.push(`${ctx.call.id}:${JSON.stringify(args)}`);
        return ctx.call.name === 'fail' ? 'skipped by hook' : undefined;
      },
      afterTool: (ctx, output) => {
        if (ctx.call.name !== 'run_code') after.push(output);
      },
    });
    const program = 'const s = await tools.fail({});\nconst a = await tools.add({ a: 2, b: 3 });\nreturn [s, a];';
    const { runner, model } = runnerWith(program, countingTools(runs), [mw], new InMemorySessionStore());
    await runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
    expect(runs).toEqual(['add:2+3']); // `fail` never ran: the hook answered it
    expect(before).toEqual([expect.stringMatching(/^code1:\{"program"/), 'code1#0:{}', 'code1#1:{"a":2,"b":3}']);
    expect(after).toEqual(['skipped by hook', 5]);
    expect(codeOutput(model)).toEqual({ result: ['skipped by hook', 5] });
  });

  it('a replayed program does not call the audit middleware for calls answered from the log', async () => {
    const store = new InMemorySessionStore();
    const seen: string[] = [];
    const runs: string[] = [];
    // The program asks a question after two calls: the resume replays it, answering both from the log.
    const ask: Tool = {
      ...countingTools(runs)[0],
      name: 'ask',
      description: 'Asks the user.',
      execute: (_args: unknown, ctx: { interrupt<T>(p: unknown): T }) => ctx.interrupt<number>('how much?'),
    } as Tool;
    const program =
      'const a = await tools.add({ a: 1, b: 2 });\nconst b = await tools.add({ a, b: 4 });\nconst c = await tools.ask({ a: 0, b: 0 });\nreturn a + b + c;';
    const first = runnerWith(program, [...countingTools(runs), ask], [audit(seen)], store);
    const stopped = await first.runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
    expect(stopped.status).toBe('interrupted');
    expect(seen).toEqual(['code1#0:add', 'code1#1:add']);
    const second = runnerWith(program, [...countingTools(runs), ask], [audit(seen)], store, true);
    const done = await second.runner.resume({ userId: 'u', sessionId: 's', values: { 'code1#2:1': 100 } }).result();
    expect(done.status).toBe('completed');
    expect(runs).toEqual(['add:1+2', 'add:3+4']);
    // Only the call that really ran on resume (the answered question) and the code call itself.
    expect(seen).toEqual(['code1#0:add', 'code1#1:add', 'code1#2:ask', 'code1:run_code']);
    expect(toolResultsOf(second.model.requests[0]?.messages.at(-1) as never)[0]?.output).toEqual({ result: 110 });
  });

  it("an event a middleware records around an inner call is stored once, with the agent's events, and read back", async () => {
    const store = new InMemorySessionStore();
    const runs: string[] = [];
    const counts: number[] = [];
    const recorder: Middleware = {
      name: 'recorder',
      async wrapToolCall(next, call, ctx) {
        const outcome = await next(call);
        ctx.record({ meta: { audited: call.id } });
        counts.push(ctx.recorded('recorder').length);
        return outcome;
      },
    };
    const program = 'await tools.add({ a: 1, b: 1 });\nreturn await tools.add({ a: 2, b: 2 });';
    const { runner } = runnerWith(program, countingTools(runs), [recorder], store);
    const result = await runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
    expect(result.status).toBe('completed');
    expect(counts).toEqual([1, 2, 3]);
    const log = (await store.get({ appName: 'code', userId: 'u', id: 's' }))?.events ?? [];
    expect(log.filter((e) => e.meta?.middleware === 'recorder').map((e) => e.meta?.audited)).toEqual(['code1#0', 'code1#1', 'code1']);
  });
});
