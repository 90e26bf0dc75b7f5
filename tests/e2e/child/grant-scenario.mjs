// @ts-check
/**
 * A plan–execute agent with plan grants (`review: { plan: true, grants: true }`), linear or graph,
 * scripted with `scriptPlanExecute`: its first step names `pay` with `{ to: 'ann' }` and pays Ann
 * (granted when the plan is approved); its second pays Bob (outside the grant: it asks). `pay`
 * writes its effect once per idempotency key to the effect log, so the parent sees which process ran it.
 */
import { tool } from '@replan/core';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';
import { z } from 'zod';

/** @typedef {'linear' | 'graph'} GrantMode */

export const GRANT_INPUT = 'Pay Ann, then Bob.';

const payAnn = { task: 'pay ann', tools: ['pay'], args: { pay: { to: 'ann' } } };

/** Each mode's plan and the key its scripts run each step by (a linear step with tools by its JSON, a graph step by id). */
export const GRANT = {
  linear: { plan: { steps: [payAnn, 'pay bob'] }, keys: [JSON.stringify(payAnn), 'pay bob'] },
  graph: {
    plan: {
      steps: [
        { id: 'a', ...payAnn, dependsOn: [] },
        { id: 'b', task: 'pay bob after $a', dependsOn: ['a'] },
      ],
    },
    keys: ['a', 'b'],
  },
};

/**
 * @param {GrantMode} mode
 * @param {{ log: ReturnType<typeof import('./effect-log.mjs').effectLog> }} options
 */
export function buildGrantAgent(mode, { log }) {
  const pay = tool({
    name: 'pay',
    description: 'Pays someone',
    parameters: z.object({ to: z.string() }),
    needsApproval: true,
    execute: ({ to }, ctx) => {
      log.applyOnce(ctx.idempotencyKey, to);
      return `paid ${to}`;
    },
  });
  const [first, second] = GRANT[mode].keys;
  const { model } = scriptPlanExecute({
    plan: GRANT[mode].plan,
    steps: {
      [String(first)]: { toolCalls: [{ name: 'pay', args: { to: 'ann' }, id: 'pay-ann' }], text: 'paid ann' },
      [String(second)]: { toolCalls: [{ name: 'pay', args: { to: 'bob' }, id: 'pay-bob' }], text: 'paid bob' },
    },
    answer: 'both paid',
  });
  return createPlanExecuteAgent({ model, mode, tools: [pay], review: { plan: true, grants: true } });
}
