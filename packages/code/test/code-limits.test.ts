import { describe, expect, it } from 'vitest';
import { ConfigurationError, toolResultsOf } from '@replan/core';
import { codeTool } from '@replan/code';
import { liveSandboxes } from '../src/sandbox.js';
import { codeRunner, countingTools } from './support.js';

/** Runs one program through a ReActAgent and returns the code call's result block as the model got it. */
async function outcome(program: string, limits = {}) {
  const runs: string[] = [];
  const { runner, model } = codeRunner(program, countingTools(runs), { limits });
  const result = await runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
  expect(result.status).toBe('completed'); // the run goes on: the model reads the error
  const block = toolResultsOf(model.requests[1]?.messages.at(-1) as never)[0];
  return { block, runs, text: String(block?.output) };
}

describe('codeTool limits: each exceeded is an error result naming the limit', () => {
  it('timeMs: an endless loop is stopped', async () => {
    const { block, text } = await outcome('while (true) {}', { timeMs: 300 });
    expect(block?.isError).toBe(true);
    expect(text).toContain('limits.timeMs = 300 ms');
  });

  it('timeMs: an endless chain of awaits is stopped too', async () => {
    const { text } = await outcome('for (;;) await null;', { timeMs: 300 });
    expect(text).toContain('limits.timeMs = 300 ms');
  });

  it('memoryBytes: unbounded allocation is stopped, and the next program runs normally', async () => {
    const { text } = await outcome('const a = []; for (let i = 0; ; i++) a.push({ i, s: "x" + i });', { memoryBytes: 4 * 1024 * 1024 });
    expect(text).toContain('limits.memoryBytes = 4194304');
    const after = await outcome('return await tools.add({ a: 2, b: 3 })');
    expect(after.block?.output).toEqual({ result: 5 });
  });

  it('memoryBytes: an array grown element by element (the WASM heap outgrowing QuickJS own count) is stopped too', async () => {
    const { text } = await outcome('const a = [];\nfor (;;) { const b = []; for (let i = 0; i < 1e5; i++) b.push(i); a.push(b); }', {
      memoryBytes: 8 * 1024 * 1024,
      timeMs: 20_000,
    });
    expect(text).toContain('limits.memoryBytes = 8388608');
  });

  it('toolCalls: one call too many ends the program', async () => {
    const { text, runs } = await outcome('for (let i = 0; i < 10; i++) await tools.add({ a: i, b: 0 });', { toolCalls: 3 });
    expect(text).toContain('limits.toolCalls = 3');
    expect(runs).toHaveLength(3);
  });

  it('outputBytes: console output over the limit ends the program', async () => {
    const { text } = await outcome('for (;;) console.log("spam spam spam");', { outputBytes: 1000 });
    expect(text).toContain('limits.outputBytes = 1000');
  });

  it('outputBytes: a return value over the limit is refused', async () => {
    const { text } = await outcome('return "x".repeat(5000);', { outputBytes: 1000 });
    expect(text).toContain('limits.outputBytes = 1000');
  });

  it('a limit that is not a positive whole number is a ConfigurationError', () => {
    expect(() => codeTool({ tools: [], limits: { timeMs: 0 } })).toThrow(ConfigurationError);
    expect(() => codeTool({ tools: [], limits: { memoryBytes: 1.5 } })).toThrow(/limits.memoryBytes/);
  });

  it('frees every sandbox: no runtime left after many runs, failures and exceeded limits included', async () => {
    const programs = [
      'return await tools.add({ a: 1, b: 1 })',
      'throw new Error("x")',
      'return (',
      'while (true) {}',
      'function f() { return f(); } return f();',
      'const a = []; for (;;) a.push({ s: "y" });',
      'return () => 1',
    ];
    for (let i = 0; i < 42; i++) await outcome(programs[i % programs.length] as string, { timeMs: 100, memoryBytes: 2 * 1024 * 1024 });
    expect(liveSandboxes()).toBe(0);
  });
});

describe('codeTool bad programs: each an error result the model reads, nothing lost', () => {
  it('a throw', async () => {
    const { block, text } = await outcome('console.log("before"); throw new Error("boom")');
    expect(block?.isError).toBe(true);
    expect(text).toContain('the program failed: Error: boom');
    expect(text).toContain('before');
  });

  it('a thrown message longer than the output limit is cut', async () => {
    const { text } = await outcome('throw new Error("x".repeat(100000))', { outputBytes: 1000 });
    expect(text.length).toBeLessThan(1200);
    expect(text).toContain('(cut at limits.outputBytes)');
  });

  it.each([
    ['a function', 'return () => 1', 'is a function'],
    ['a BigInt', 'return { n: 1n }', 'key "n" is a bigint'],
    ['a cycle', 'const o = {}; o.self = o; return o', 'circular'],
    ['NaN', 'return NaN', 'is NaN'],
  ])('a non-JSON return value: %s', async (_name, program, expected) => {
    const { text } = await outcome(program);
    expect(text).toContain('returned a value that is not JSON');
    expect(text).toContain(expected);
  });

  it('undefined is returned as null (as tool outputs are)', async () => {
    const { block } = await outcome('await tools.add({ a: 1, b: 2 });');
    expect(block?.output).toEqual({ result: null });
  });

  it('an unknown tool', async () => {
    const { text } = await outcome('return await tools.delete_everything({})');
    expect(text).toContain('unknown tool "delete_everything": the tools are add, fail');
  });

  it('arguments failing the tool schema reject the call with the validation error; the tool never runs', async () => {
    const { text, runs } = await outcome('return await tools.add({ a: "one" })');
    expect(text).toContain('invalid arguments for "add"');
    expect(runs).toEqual([]);
  });

  it('invalid JavaScript', async () => {
    const { text } = await outcome('return (;');
    expect(text).toContain('the program is not valid JavaScript: SyntaxError');
  });

  it('runaway recursion', async () => {
    const { text } = await outcome('function f() { return f(); } return f();');
    expect(text).toContain('stack overflow');
    const after = await outcome('return 1');
    expect(after.block?.output).toEqual({ result: 1 });
  });
});
