import { InMemorySessionStore, ReActAgent, Runner, type SessionStore, type Tool, tool } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { z } from 'zod';
import { type CodeLimits, codeTool } from '@replan/code';

/** A tool that counts its runs (the side effects a resume must not repeat). */
export function countingTools(runs: string[]) {
  const add = tool({
    name: 'add',
    description: 'Adds two numbers.',
    parameters: z.object({ a: z.number(), b: z.number() }),
    execute: ({ a, b }) => {
      runs.push(`add:${a}+${b}`);
      return a + b;
    },
  });
  const fail = tool({
    name: 'fail',
    description: 'Always fails.',
    parameters: z.object({}),
    execute: () => {
      runs.push('fail');
      throw new Error('the service is down');
    },
  });
  return [add, fail];
}

/** A runner whose agent makes one code call (`program`) with id `code1`, then answers with the result it got. */
export function codeRunner(
  program: string | string[],
  tools: readonly Tool[],
  options: { limits?: CodeLimits; store?: SessionStore } = {},
) {
  const programs = Array.isArray(program) ? program : [program];
  const model = new ScriptedModel({
    responses: programs.map((p, i) => callTools({ name: 'run_code', id: i === 0 ? 'code1' : `code${i + 1}`, args: { program: p } })),
    respond: () => 'done',
  });
  const code = codeTool({ tools, ...(options.limits ? { limits: options.limits } : {}) });
  const agent = new ReActAgent({ name: 'agent', model, tools: [code] });
  const store = options.store ?? new InMemorySessionStore();
  const runner = new Runner({ agent, appName: 'code', sessionStore: store });
  return { runner, model, store, code };
}
