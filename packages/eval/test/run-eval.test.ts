import { InMemorySessionStore, type Run, type RunOptions, Runner } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';
import { describe, expect, it } from 'vitest';
import { arg, defineEvalSet, renderTerminal, runEval } from '@replan/eval';
import { researchRunner } from './support/agents.js';

const cities = (input: string) => ['Lyon', 'Porto', 'Oslo'].filter((c) => input.includes(c));

describe('runEval', () => {
  it('scores passing and failing cases per criterion, with cost, tokens, latency and the session kept in the store', async () => {
    const store = new InMemorySessionStore();
    const runner = researchRunner({ store, cities });
    const set = defineEvalSet({
      name: 'cities',
      cases: [
        {
          name: 'two cities',
          input: 'Compare Lyon and Porto',
          expect: {
            trajectory: {
              mode: 'exact',
              calls: [
                { name: 'lookup', args: { city: 'Lyon', units: arg.ignore } },
                { name: 'lookup', args: { city: /^Por/, units: 'metric' } },
              ],
            },
            plan: { includes: ['lyon', /Look up Porto/], maxSteps: 2, maxReplans: 1 },
            answer: /Lyon and Porto/,
            status: 'completed',
            maxCost: 1,
            maxLatencyMs: 60_000,
          },
        },
        {
          name: 'wrong expectations',
          input: 'Describe Oslo',
          expect: {
            trajectory: { mode: 'exact', calls: [{ name: 'lookup', args: { city: 'Bergen', units: 'metric' } }] },
            plan: { includes: ['Bergen'], maxSteps: 0 },
            answer: 'Oslo is in Sweden.',
            status: 'completed',
            maxCost: 0.01,
          },
        },
      ],
    });
    const report = await runEval({ set, runner });

    expect(report.pass).toBe(false);
    expect([report.passed, report.failed]).toEqual([1, 1]);
    const [good, bad] = report.cases;
    expect(good?.pass).toBe(true);
    expect(good?.criteria.map((c) => [c.criterion, c.pass, c.score])).toEqual([
      ['trajectory', true, 1],
      ['plan', true, 1],
      ['answer', true, 1],
      ['status', true, 1],
      ['cost', true, 1],
      ['latency', true, 1],
    ]);
    // 7 model calls (planner, 2 × executor twice, replanner twice) at $0.02 each, 10 in / 5 out tokens each.
    expect(good?.cost).toBeCloseTo(0.14);
    expect(good?.usage).toEqual({ inputTokens: 70, outputTokens: 35 });
    expect(good?.latencyMs).toBeGreaterThan(0);
    const sessionId = good?.sessionIds[0] as string;
    const stored = await store.get({ appName: 'eval-test', userId: 'eval', id: sessionId });
    expect(stored?.events[0]?.message?.content).toEqual([{ type: 'text', text: 'Compare Lyon and Porto' }]);

    expect(bad?.pass).toBe(false);
    const byName = Object.fromEntries((bad?.criteria ?? []).map((c) => [c.criterion, c]));
    expect(byName.trajectory?.pass).toBe(false);
    expect(byName.trajectory?.score).toBe(0);
    expect(byName.trajectory?.reason).toContain('city: expected "Bergen", got "Oslo"');
    expect(byName.plan?.pass).toBe(false);
    // Both checks failed: no "Bergen" step, one step executed where 0 were allowed.
    expect(byName.plan?.score).toBe(0);
    expect(byName.plan?.reason).toContain('no plan step matches "Bergen"');
    expect(byName.answer?.reason).toBe('expected "Oslo is in Sweden.", got "Answer to Describe Oslo"');
    expect(byName.status?.pass).toBe(true);
    // 4 calls: $0.08 > $0.01.
    expect(byName.cost?.pass).toBe(false);
    expect(byName.cost?.score).toBeCloseTo(0.125);
  });

  it('repeat gives pass rates for a flaky agent; a case passes when its rate reaches its threshold', async () => {
    // Every other run answers wrongly.
    const runner = researchRunner({ answer: (input, run) => (run % 2 ? `Answer to ${input}` : 'I do not know') });
    const set = defineEvalSet({
      name: 'flaky',
      cases: [
        { name: 'strict', input: 'Tell me about Lyon', expect: { answer: /^Answer to/ } },
        { name: 'tolerant', input: 'Tell me about Lyon', passRate: 0.5, expect: { answer: /^Answer to/ } },
      ],
    });
    const report = await runEval({ set, runner, repeat: 4 });
    const [strict, tolerant] = report.cases;
    expect(strict?.runs).toHaveLength(4);
    expect(strict?.passRate).toBe(0.5);
    expect(strict?.pass).toBe(false);
    expect(strict?.criteria[0]).toMatchObject({ criterion: 'answer', passRate: 0.5, score: 0.5, pass: false });
    expect(tolerant?.passRate).toBe(0.5);
    expect(tolerant?.pass).toBe(true);
    expect(new Set(strict?.sessionIds).size).toBe(4);
    expect(report.passed).toBe(1);
    // The terminal names three sessions of a case and counts the rest.
    expect(renderTerminal(report, { color: false })).toMatch(
      /^✗ strict 2\/4 \(50%\) passed \(needs 100%\) .* session [\w-]+, [\w-]+, [\w-]+ \(\+1 more\)$/m,
    );
  });

  it('never runs more than `concurrency` cases at once, and does use that many', async () => {
    let running = 0;
    let most = 0;
    // Counts runs between their start and their end, whatever the agent does inside.
    class CountingRunner extends Runner {
      override run(options: RunOptions): Run {
        running++;
        most = Math.max(most, running);
        const run = super.run(options);
        void run.result().finally(() => running--);
        return run;
      }
    }
    const { agent } = researchRunner({ latencyMs: 10 });
    const runner = new CountingRunner({ agent, appName: 'bound' });
    const cases = Array.from({ length: 8 }, (_, i) => ({
      name: `case ${i}`,
      input: `Tell me about Lyon ${i}`,
      expect: { status: 'completed' as const },
    }));
    const report = await runEval({ set: defineEvalSet({ name: 'bound', cases }), runner, concurrency: 3 });
    expect(report.passed).toBe(8);
    expect(most).toBe(3);

    most = 0;
    await runEval({ set: defineEvalSet({ name: 'serial', cases }), runner });
    expect(most).toBe(1);
  });

  it('a case whose run throws is a failed case with the error; the other cases still run and pass', async () => {
    const store = new InMemorySessionStore();
    const set = defineEvalSet({
      name: 'errors',
      cases: [
        { name: 'planner fails', input: 'Tell me about Oslo BOOM', expect: { answer: /Oslo/ } },
        { name: 'runner cannot be made', input: 'Tell me about Porto', expect: { status: 'completed' } },
        { name: 'fine', input: 'Tell me about Lyon', expect: { status: 'completed' } },
      ],
    });
    const report = await runEval({
      set,
      makeRunner: (evalCase) => {
        if (evalCase.name === 'runner cannot be made') throw new Error('no API key for this case');
        return researchRunner({ store, failOn: 'BOOM' });
      },
    });
    const [planner, made, fine] = report.cases;
    expect(planner?.pass).toBe(false);
    expect(planner?.runs[0]?.status).toBe('failed');
    expect(planner?.runs[0]?.error?.message).toContain('planner exploded on BOOM');
    expect(made?.pass).toBe(false);
    expect(made?.runs[0]?.error).toEqual({ name: 'Error', message: 'no API key for this case' });
    expect(made?.sessionIds).toEqual([]);
    expect(fine?.pass).toBe(true);
  });

  it('a run that cannot start (a bad session id) is a failed case, not a rejected eval', async () => {
    const set = defineEvalSet({
      name: 'bad id',
      cases: [{ name: 'nul in id', input: 'Lyon', sessionId: 'a\u0000b', expect: { status: 'completed' } }],
    });
    const report = await runEval({ set, runner: researchRunner() });
    expect(report.cases[0]?.pass).toBe(false);
    expect(report.cases[0]?.runs[0]?.error?.name).toBe('InvalidArgumentError');
    expect(report.cases[0]?.sessionIds).toEqual([]);
  });

  it('uses the case session id, suffixed per repeat, and the set user id', async () => {
    const store = new InMemorySessionStore();
    const set = defineEvalSet({
      name: 'ids',
      userId: 'ci',
      cases: [{ name: 'a', input: 'Lyon', sessionId: 'case-a', expect: { status: 'completed' } }],
    });
    const report = await runEval({ set, runner: researchRunner({ store }), repeat: 2 });
    expect(report.cases[0]?.sessionIds).toEqual(['case-a', 'case-a-2']);
    expect(await store.get({ appName: 'eval-test', userId: 'ci', id: 'case-a-2' })).toBeDefined();
  });

  it('refuses bad options with an EvalInputError of kind set', async () => {
    const set = defineEvalSet({ name: 's', cases: [{ name: 'a', input: 'x', expect: { status: 'completed' } }] });
    const runner = new Runner({ agent: researchRunner().agent, appName: 'x' });
    await expect(runEval({ set })).rejects.toThrow(/needs either runner or makeRunner/);
    await expect(runEval({ set, runner, makeRunner: () => runner })).rejects.toMatchObject({ name: 'EvalInputError', kind: 'set' });
    await expect(runEval({ set, runner, concurrency: 0 })).rejects.toThrow(/concurrency must be a whole number ≥ 1, not 0/);
    await expect(runEval({ set, runner, repeat: 1.5 })).rejects.toThrow(/repeat must be/);
    await expect(runEval({ set: { name: '', cases: [] }, runner })).rejects.toMatchObject({ name: 'EvalInputError', kind: 'set' });
  });

  it('an aborted eval reports the runs it did not start as failed', async () => {
    const controller = new AbortController();
    controller.abort();
    const set = defineEvalSet({ name: 'stop', cases: [{ name: 'a', input: 'Lyon', expect: { status: 'completed' } }] });
    const report = await runEval({ set, runner: researchRunner({ cities: () => [] }), signal: controller.signal });
    expect(report.cases[0]?.runs[0]?.error?.message).toBe('not run: the eval was aborted');
    expect(report.pass).toBe(false);
  });

  it('a scripted model that is not a plan–execute agent still has status, answer and cost judged', async () => {
    const { ReActAgent } = await import('@replan/core');
    const model = new ScriptedModel({ respond: () => 'plain answer' });
    const runner = new Runner({ agent: new ReActAgent({ name: 'solo', model }), appName: 'solo' });
    const set = defineEvalSet({
      name: 'solo',
      cases: [{ name: 'a', input: 'hi', expect: { answer: 'plain answer', plan: { includes: ['x'] } } }],
    });
    const [c] = (await runEval({ set, runner })).cases;
    expect(c?.criteria.find((k) => k.criterion === 'answer')?.pass).toBe(true);
    expect(c?.criteria.find((k) => k.criterion === 'plan')?.reason).toContain('the run wrote no plan');
  });
});
