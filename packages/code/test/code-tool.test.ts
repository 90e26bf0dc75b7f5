import { describe, expect, it } from 'vitest';
import { toolResultsOf } from '@replan/core';
import { codeRunner, countingTools } from './support.js';

const resultOf = (model: { requests: readonly { messages: readonly unknown[] }[] }, turn = 1) =>
  toolResultsOf(model.requests[turn]?.messages.at(-1) as never)[0];

describe('codeTool in a ReActAgent', () => {
  it('runs a program that calls tools; the model gets its return value and console lines, and only the code call', async () => {
    const runs: string[] = [];
    const { runner, model, store } = codeRunner(
      'let sum = 0;\nfor (let i = 1; i <= 3; i++) sum = await tools.add({ a: sum, b: i });\nconsole.log("sum is", sum);\nreturn { sum };',
      countingTools(runs),
    );
    const result = await runner.run({ userId: 'u', sessionId: 's', input: 'add 1..3' }).result();
    expect(result.status).toBe('completed');
    expect(runs).toEqual(['add:0+1', 'add:1+2', 'add:3+3']);
    expect(resultOf(model)).toMatchObject({ toolCallId: 'code1', output: { result: { sum: 6 }, logs: ['sum is 6'] } });
    expect(resultOf(model)?.isError).toBeUndefined();
    // The request the model receives has the code call and its result only: no inner call.
    const second = model.requests[1]?.messages ?? [];
    expect(JSON.stringify(second)).not.toContain('code1#');
    expect(second.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    // The log has each inner call as its own pair, under the code call, in order.
    const session = await store.get({ appName: 'code', userId: 'u', id: 's' });
    const inner = session?.events.filter((e) => e.meta?.codeCall) ?? [];
    expect(inner.map((e) => [e.message?.role, e.message?.content[0]?.type, e.meta?.codeCall])).toEqual([
      ['assistant', 'tool_call', { id: 'code1', index: 0 }],
      ['tool', 'tool_result', { id: 'code1', index: 0 }],
      ['assistant', 'tool_call', { id: 'code1', index: 1 }],
      ['tool', 'tool_result', { id: 'code1', index: 1 }],
      ['assistant', 'tool_call', { id: 'code1', index: 2 }],
      ['tool', 'tool_result', { id: 'code1', index: 2 }],
    ]);
    expect(inner[0]?.message?.content[0]).toMatchObject({ id: 'code1#0', name: 'add', args: { a: 0, b: 1 } });
    expect(inner[1]?.message?.content[0]).toMatchObject({ toolCallId: 'code1#0', output: 1 });
  });

  it('tells the model the functions with their JSON Schemas and the limits', () => {
    const { code } = codeRunner('return 1', countingTools([]), { limits: { toolCalls: 7 } });
    expect(code.description).toContain('tools.add(args): Adds two numbers.');
    expect(code.description).toContain('"properties":{"a":{"type":"number"},"b":{"type":"number"}}');
    expect(code.description).toContain('7 tool calls');
  });

  it('a tool error result rejects the call inside the program, which may catch it', async () => {
    const runs: string[] = [];
    const { runner, model } = codeRunner(
      'try { await tools.fail({}); } catch (e) { return { caught: e.name + ": " + e.message }; }',
      countingTools(runs),
    );
    await runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
    expect(resultOf(model)?.output).toEqual({ result: { caught: 'ToolError: Error: tool "fail" failed: the service is down' } });
  });

  it('calls the program does not await before it returns are stopped or never started: no side effect, no result stored', async () => {
    const runs: string[] = [];
    const { runner, store } = codeRunner(
      'await tools.add({ a: 1, b: 1 });\ntools.add({ a: 2, b: 2 });\ntools.add({ a: 3, b: 3 });\nreturn "early";',
      countingTools(runs),
    );
    expect((await runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result()).status).toBe('completed');
    expect(runs).toEqual(['add:1+1']);
    const session = await store.get({ appName: 'code', userId: 'u', id: 's' });
    // One result: the call awaited. (The first unawaited call had started, and was stopped.)
    expect(session?.events.filter((e) => e.meta?.codeCall && e.message?.role === 'tool')).toHaveLength(1);
    expect(session?.events.filter((e) => e.meta?.codeCall && e.message?.role === 'assistant').length).toBeLessThanOrEqual(2);
  });

  it('outside a Runner the code tool says it needs one', async () => {
    const { code } = codeRunner('return 1', []);
    await expect(code.execute({ program: 'return 1' }, { toolCallId: 'x', signal: new AbortController().signal } as never)).rejects.toThrow(
      'runs only inside a Runner',
    );
  });
});
