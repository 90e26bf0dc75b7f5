import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Middleware, ReActAgent, Runner, tool } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { collect } from './support.js';

/** `pay` needs approval; the middleware grants amounts up to 10 (as plan–execute grants a reviewed plan's calls). */
function setup(middleware: readonly Middleware[]) {
  const paid: number[] = [];
  const pay = tool({
    name: 'pay',
    description: 'Pays an amount',
    parameters: z.object({ amount: z.number() }),
    needsApproval: true,
    execute: ({ amount }) => (paid.push(amount), 'paid'),
  });
  const model = new ScriptedModel({
    responses: [callTools({ name: 'pay', args: { amount: 5 }, id: 'small' }, { name: 'pay', args: { amount: 50 }, id: 'big' }), 'done'],
  });
  const runner = new Runner({ agent: new ReActAgent({ name: 'payer', model, tools: [pay], middleware }), appName: 'grants' });
  return { runner, paid };
}

const upToTen: Middleware = {
  name: 'up-to-ten',
  grantApproval: (_call, ctx) => ((ctx.args as { amount: number }).amount <= 10 ? { meta: { grantedBy: 'policy:10' } } : undefined),
};

describe('middleware grantApproval', () => {
  it('runs a granted needsApproval call unasked, its grant on the result event; an ungranted call still asks', async () => {
    const { runner, paid } = setup([{ name: 'silent' }, upToTen]);
    const first = await collect(runner.run({ userId: 'u', input: 'pay', sessionId: 's' }));
    expect(first.result.interrupts.map((i) => i.id)).toEqual(['big:approval']);
    expect(paid).toEqual([5]);
    const granted = first.events.find((e) => e.message?.content[0]?.type === 'tool_result');
    expect(granted?.meta?.grantedBy).toBe('policy:10');
    const second = await collect(runner.resume({ userId: 'u', sessionId: 's', approvals: { 'big:approval': true } }));
    expect(second.result.status).toBe('completed');
    expect(paid).toEqual([5, 50]);
    // The asked call's result carries no grant.
    const asked = second.events.find((e) => e.message?.content[0]?.type === 'tool_result');
    expect(asked?.meta?.grantedBy).toBeUndefined();
  });

  it('asks for every call when no middleware grants', async () => {
    const { runner, paid } = setup([{ name: 'never', grantApproval: () => undefined }]);
    const first = await collect(runner.run({ userId: 'u', input: 'pay', sessionId: 's' }));
    expect(first.result.interrupts.map((i) => i.id).sort()).toEqual(['big:approval', 'small:approval']);
    expect(paid).toEqual([]);
  });
});
