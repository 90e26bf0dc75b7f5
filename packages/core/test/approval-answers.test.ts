import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isApprovalAnswer, ReActAgent, ResumeError, Runner, tool, toolResultsOf } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { collect } from './support.js';

/** A run stopped on two interrupts: `p1:approval` (a needsApproval tool) and `q1:1` (ctx.interrupt). */
async function interrupted() {
  const paid: number[] = [];
  const pay = tool({
    name: 'pay',
    description: 'Pays an amount',
    parameters: z.object({ amount: z.number() }),
    needsApproval: true,
    execute: ({ amount }) => (paid.push(amount), 'paid'),
  });
  const ask = tool({
    name: 'ask',
    description: 'Asks the user',
    parameters: z.object({}),
    execute: (_a, ctx) => `said ${ctx.interrupt<string>('?')}`,
  });
  const model = new ScriptedModel({
    responses: [callTools({ name: 'pay', args: { amount: 10 }, id: 'p1' }, { name: 'ask', id: 'q1' }), 'done'],
  });
  const runner = new Runner({ agent: new ReActAgent({ name: 'payer', model, tools: [pay, ask] }), appName: 'approvals' });
  const first = await collect(runner.run({ userId: 'u', input: 'pay', sessionId: 's' }));
  expect(first.result.interrupts.map((i) => i.id).sort()).toEqual(['p1:approval', 'q1:1']);
  const version = async () => (await runner.sessionStore.get({ appName: 'approvals', userId: 'u', id: 's' }))?.version;
  return { runner, model, paid, version };
}

describe('approval answers', () => {
  it.each([
    ['a string', 'yes', /got "yes"; an approval answer is true, false or \{ approved: boolean, message\?: string \}/],
    ['a number', 1, /got 1/],
    ['null', null, /got null/],
    ['an array', [true], /got \[true\]/],
    ['an object without approved', { ok: true }, /"approved" must be true or false, got undefined/],
    ['approved as a string', { approved: 'yes' }, /"approved" must be true or false, got "yes"/],
    ['a message that is not a string', { approved: false, message: 3 }, /"message" must be a string, got 3/],
  ])('an approval interrupt answered with %s is refused before anything runs, naming the interrupt', async (_what, value, problem) => {
    const h = await interrupted();
    const before = await h.version();
    const resume = h.runner.resume({ userId: 'u', sessionId: 's', values: { 'p1:approval': value, 'q1:1': 'hi' } });
    await expect(resume.result()).rejects.toBeInstanceOf(ResumeError);
    await expect(resume.result()).rejects.toMatchObject({ name: 'ResumeError', kind: 'invalid_value' });
    const again = h.runner.resume({ userId: 'u', sessionId: 's', values: { 'p1:approval': value, 'q1:1': 'hi' } }).result();
    await expect(again).rejects.toThrow(/interrupt "p1:approval": it is an approval interrupt \(tool "pay"\)/);
    await expect(h.runner.resume({ userId: 'u', sessionId: 's', values: { 'p1:approval': value } }).result()).rejects.toThrow(problem);
    expect(await h.version()).toBe(before); // nothing stored
    expect(h.paid).toEqual([]);
    expect(h.model.calls).toBe(1);
    expect(isApprovalAnswer(value)).toBe(false);
    // A valid answer afterwards resumes normally.
    const ok = await collect(h.runner.resume({ userId: 'u', sessionId: 's', values: { 'p1:approval': true, 'q1:1': 'hi' } }));
    expect(ok.result.status).toBe('completed');
    expect(h.paid).toEqual([10]);
  });

  it('the typed approvals option answers approval interrupts, merged with values', async () => {
    const h = await interrupted();
    const { result } = await collect(
      h.runner.resume({
        userId: 'u',
        sessionId: 's',
        approvals: { 'p1:approval': { approved: false, message: 'too much' } },
        values: { 'q1:1': 'hi' },
      }),
    );
    expect(result.status).toBe('completed');
    expect(h.paid).toEqual([]);
    const results = h.model.requests[1]?.messages.flatMap((m) => toolResultsOf(m)) ?? [];
    expect(String(results.find((r) => r.toolCallId === 'p1')?.output)).toMatch(/rejected.*too much/);
    expect(results.find((r) => r.toolCallId === 'q1')?.output).toBe('said hi');
  });

  it('approvals for an interrupt that is not an approval, given twice, or unknown are refused and nothing is stored', async () => {
    const h = await interrupted();
    const before = await h.version();
    const resume = (o: { approvals?: Record<string, boolean>; values?: Record<string, unknown> }) =>
      h.runner.resume({ userId: 'u', sessionId: 's', ...o }).result();
    await expect(resume({ approvals: { 'q1:1': true } })).rejects.toThrow(
      /interrupt "q1:1": it is not an approval interrupt \(its reason is "input"\); answer it in values/,
    );
    await expect(resume({ approvals: { 'p1:approval': true }, values: { 'p1:approval': true } })).rejects.toThrow(
      /given both in values and in approvals/,
    );
    await expect(resume({ approvals: { 'x:approval': true } })).rejects.toMatchObject({ name: 'ResumeError', kind: 'unknown_interrupt' });
    expect(await h.version()).toBe(before);
    expect(h.model.calls).toBe(1);
  });

  it('isApprovalAnswer accepts the three forms', () => {
    for (const v of [true, false, { approved: true }, { approved: false, message: 'no' }]) expect(isApprovalAnswer(v)).toBe(true);
  });
});
