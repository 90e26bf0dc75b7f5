import { describe, expectTypeOf, test } from 'vitest';
import { z } from 'zod';
import { agentTool, ReActAgent, type RunResult, SequentialAgent, type Tool } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';

const agent = new ReActAgent({ name: 'inner', model: new ScriptedModel({ responses: ['x'] }) });

describe('agentTool() types', () => {
  test('the default arguments are { input: string }', () => {
    expectTypeOf(agentTool(agent)).toEqualTypeOf<Tool<{ input: string }, unknown>>();
    expectTypeOf(agent.asTool()).toEqualTypeOf<Tool<{ input: string }, unknown>>();
  });

  test('input() receives the parsed arguments of `parameters`; output() the child RunResult', () => {
    const t = agentTool(agent, {
      parameters: z.object({ text: z.string(), n: z.number().default(1) }),
      input: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ text: string; n: number }>();
        return args.text.repeat(args.n);
      },
      output: (result) => {
        expectTypeOf(result).toEqualTypeOf<RunResult>();
        return result.output ?? '';
      },
    });
    expectTypeOf(t).toEqualTypeOf<Tool<{ text: string; n: number }, unknown>>();
  });

  test('workflow agents have asTool() too', () => {
    const seq = new SequentialAgent({ name: 'seq', subAgents: [agent] });
    expectTypeOf(seq.asTool({ parameters: z.object({ q: z.string() }) })).toEqualTypeOf<Tool<{ q: string }, unknown>>();
    // @ts-expect-error input() must accept the declared arguments
    agentTool(agent, { parameters: z.object({ q: z.string() }), input: (args: { other: number }) => String(args.other) });
  });
});
