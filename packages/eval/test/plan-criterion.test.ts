import { type ModelRequest, messageText, Runner, tool } from '@replan/core';
import { callTools, ScriptedModel, type ScriptedReply } from '@replan/core/testing';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEvalSet, runEval } from '@replan/eval';

const isPlanner = (r: ModelRequest) => typeof r.toolChoice === 'object' && r.toolChoice.name === 'plan';
const isReplanner = (r: ModelRequest) => r.tools?.some((t) => t.name === 'respond') === true;

/** Graph mode: `a` and `b` in parallel (each with a lookup, b slower), then `c` after both. */
function graphRunner(): Runner {
  const lookup = tool({
    name: 'lookup',
    description: 'Looks up.',
    parameters: z.object({ topic: z.string() }),
    execute: ({ topic }) => `notes on ${topic}`,
  });
  const model = new ScriptedModel({
    latencyMs: (call) => (call % 3) * 5,
    respond: (request): ScriptedReply => {
      if (isPlanner(request))
        return callTools({
          name: 'plan',
          args: {
            steps: [
              { id: 'a', task: 'Look up the alpha notes', dependsOn: [] },
              { id: 'b', task: 'Look up the beta notes', dependsOn: [] },
              { id: 'c', task: 'Combine $a and $b', dependsOn: ['a', 'b'] },
            ],
          },
        });
      if (isReplanner(request)) return callTools({ name: 'respond', args: { response: 'Combined.' } });
      const task = messageText(request.messages.findLast((m) => m.role === 'user'));
      if (request.messages.at(-1)?.role === 'tool' || task.includes('Combine')) return 'done';
      return callTools({ name: 'lookup', args: { topic: task.includes('alpha') ? 'alpha' : 'beta' } });
    },
  });
  return new Runner({ agent: createPlanExecuteAgent({ model, tools: [lookup], mode: 'graph' }), appName: 'graph' });
}

describe('plan and trajectory of a graph run', () => {
  it('reads graph steps by their task, counts executed steps and replans; parallel tool calls match any-order', async () => {
    const set = defineEvalSet({
      name: 'graph',
      cases: [
        {
          name: 'within limits',
          input: 'Research alpha and beta',
          expect: {
            plan: { includes: ['alpha notes', /^Combine \$a and \$b$/], maxSteps: 3, maxReplans: 0 },
            trajectory: {
              mode: 'any-order',
              calls: [
                { name: 'lookup', args: { topic: 'beta' } },
                { name: 'lookup', args: { topic: 'alpha' } },
              ],
            },
          },
        },
        { name: 'too many steps', input: 'Research alpha and beta', expect: { plan: { includes: ['gamma'], maxSteps: 2, maxReplans: 0 } } },
      ],
    });
    const report = await runEval({ set, runner: graphRunner() });
    const [ok, over] = report.cases;
    expect(ok?.criteria.map((c) => [c.criterion, c.pass])).toEqual([
      ['trajectory', true],
      ['plan', true],
    ]);
    expect(ok?.criteria[1]?.reason).toBe('1 plan(s), 3 step(s) executed, 0 replan(s)');
    expect(over?.criteria[0]).toMatchObject({
      pass: false,
      score: 1 / 3,
      reason: 'no plan step matches "gamma"; executed 3 steps, at most 2 expected — 1 plan(s), 3 step(s) executed, 0 replan(s)',
    });
  });

  it('counts the replanner’s revisions against maxReplans', async () => {
    const { researchRunner } = await import('./support/agents.js');
    const set = defineEvalSet({
      name: 'replans',
      cases: [
        { name: 'one replan allowed', input: 'Lyon Porto Oslo', expect: { plan: { maxReplans: 1 } } },
        { name: 'two allowed', input: 'Lyon Porto Oslo', expect: { plan: { maxReplans: 2, includes: [/Look up Oslo/] } } },
      ],
    });
    const report = await runEval({ set, runner: researchRunner({ cities: () => ['Lyon', 'Porto', 'Oslo'] }) });
    expect(report.cases[0]?.criteria[0]?.reason).toMatch(/^replanned 2 times, at most 1 expected/);
    expect(report.cases[1]?.pass).toBe(true);
  });
});
