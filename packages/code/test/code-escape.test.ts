import { describe, expect, it } from 'vitest';
import { tool, toolResultsOf } from '@replan/core';
import { z } from 'zod';
import { codeRunner } from './support.js';

async function run(program: string, tools = [echo]) {
  const { runner, model } = codeRunner(program, tools);
  await runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
  return toolResultsOf(model.requests[1]?.messages.at(-1) as never)[0]?.output as { result: unknown };
}

const received: unknown[] = [];
const echo = tool({
  name: 'echo',
  description: 'Returns its arguments.',
  parameters: z.object({ value: z.unknown() }).passthrough(),
  execute: (args) => {
    received.push(args);
    return { polluted: (args as Record<string, unknown>).polluted ?? null, proto: Object.getPrototypeOf(args) === Object.prototype };
  },
});

describe('the sandbox has nothing of the host', () => {
  it('globalThis holds only standard JavaScript: no process, require, fetch, timers or host functions', async () => {
    const { result } = await run(
      'return { own: Object.getOwnPropertyNames(globalThis).filter((k) => !/^[A-Z]/.test(k) && !["globalThis","parseInt","parseFloat","isNaN","isFinite","decodeURI","decodeURIComponent","encodeURI","encodeURIComponent","escape","unescape","eval","undefined","NaN","Infinity","Math","JSON","Reflect","Atomics"].includes(k)), types: [typeof process, typeof require, typeof fetch, typeof setTimeout, typeof setInterval, typeof queueMicrotask, typeof globalThis.console, typeof globalThis.tools] }',
    );
    expect(result).toEqual({
      own: [],
      types: ['undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'undefined'],
    });
  });

  it('constructor.constructor("return process")() finds no process; neither does this', async () => {
    const { result } = await run(
      'const F = (async () => {}).constructor.constructor; const G = tools.echo.constructor; return [F("return typeof process")(), G("return typeof process")(), typeof this?.process, typeof globalThis.process]',
    );
    expect(result).toEqual(['undefined', 'undefined', 'undefined', 'undefined']);
  });

  it('import() and require find no modules', async () => {
    const { result } = await run(
      'const out = []; try { await import("node:fs"); out.push("imported"); } catch (e) { out.push(e.name); } try { require("fs"); } catch (e) { out.push(e.name); } return out;',
    );
    expect(result).toEqual(['ReferenceError', 'ReferenceError']);
  });

  it('prototype pollution in the program does not reach the arguments a tool receives', async () => {
    received.length = 0;
    const { result } = await run('Object.prototype.polluted = "yes"; return await tools.echo({ value: { a: 1 } });');
    expect(result).toEqual({ polluted: null, proto: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((received[0] as { value: Record<string, unknown> }).value.polluted).toBeUndefined();
  });

  it('the clock is frozen at the code call and Math.random is seeded by it: the same on every run', async () => {
    const program = 'return { now: Date.now(), same: new Date().getTime() === Date.now(), r: [Math.random(), Math.random()] }';
    const a = await run(program);
    const b = await run(program);
    expect((a.result as { same: boolean }).same).toBe(true);
    expect((a.result as { r: number[] }).r).toEqual((b.result as { r: number[] }).r);
  });
});
