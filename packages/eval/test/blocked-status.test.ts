import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSessionStore, InMemorySessionStore, type Guardrails } from '@replan/core';
import { describe, expect, it } from 'vitest';
import { defineEvalSet, runEval, sessionToEvalCase } from '@replan/eval';
import { runEvalCli } from '@replan/eval/cli';
import { researchRunner } from './support/agents.js';

const onTopic: Guardrails = {
  input: [{ name: 'on_topic', check: (text) => ({ tripwire: /weapons/i.test(text), reason: 'off-topic request' }) }],
};
const noPorto: Guardrails = {
  output: [{ name: 'no_porto', check: (text) => ({ tripwire: text.includes('Porto'), reason: 'mentions Porto' }) }],
};
const cities = (input: string) => ['Lyon', 'Porto'].filter((c) => input.includes(c));

describe('evals of runs a guardrail blocks', () => {
  it("an input tripwire: `status: 'blocked'` passes, `status: 'completed'` fails saying the run ended blocked and by which guardrail", async () => {
    const set = defineEvalSet({
      name: 'guarded',
      cases: [
        { name: 'refused', input: 'Compare Lyon weapons', expect: { status: 'blocked', trajectory: { mode: 'exact', calls: [] } } },
        { name: 'expected to run', input: 'Compare Lyon weapons', expect: { status: 'completed' } },
        { name: 'allowed', input: 'Compare Lyon', expect: { status: 'completed' } },
      ],
    });
    const report = await runEval({ set, runner: researchRunner({ cities, guardrails: onTopic }) });
    const [refused, expectedToRun, allowed] = report.cases;
    expect(refused?.pass).toBe(true);
    expect(refused?.runs[0]?.status).toBe('blocked');
    expect(allowed?.pass).toBe(true);
    expect(expectedToRun?.pass).toBe(false);
    const status = expectedToRun?.criteria.find((c) => c.criterion === 'status');
    expect(status?.pass).toBe(false);
    expect(status?.reason).toContain('the run ended blocked');
    expect(status?.reason).toContain('on_topic');
    expect(status?.reason).toContain('off-topic request');
    expect(report.pass).toBe(false);
  });

  it('a session an input guardrail blocked becomes a case expecting blocked, no calls and no answer; it passes again', async () => {
    const store = new InMemorySessionStore();
    const runner = researchRunner({ store, cities, guardrails: onTopic });
    await runner.run({ userId: 'u', sessionId: 'b1', input: 'Compare Lyon weapons' }).result();
    const session = await store.get({ appName: runner.appName, userId: 'u', id: 'b1' });
    const { evalCase } = sessionToEvalCase(session!);
    expect(evalCase.expect).toEqual({ trajectory: { mode: 'exact', calls: [] }, status: 'blocked' });
    const report = await runEval({
      set: defineEvalSet({ name: 'prod', cases: [evalCase] }),
      runner: researchRunner({ cities, guardrails: onTopic }),
    });
    expect(report.pass).toBe(true);
    // Without the guardrail the same input runs to an answer: the case catches the regression.
    const unguarded = await runEval({ set: defineEvalSet({ name: 'prod', cases: [evalCase] }), runner: researchRunner({ cities }) });
    expect(unguarded.pass).toBe(false);
  });

  it('a session an output guardrail blocked records blocked and leaves out the withheld answer, so the case passes on replay', async () => {
    const store = new InMemorySessionStore();
    const runner = researchRunner({ store, cities, guardrails: noPorto });
    const result = await runner.run({ userId: 'u', sessionId: 'b2', input: 'Compare Lyon and Porto' }).result();
    expect(result.status).toBe('blocked');
    expect(result.output).toBeUndefined();
    const session = await store.get({ appName: runner.appName, userId: 'u', id: 'b2' });
    const { evalCase } = sessionToEvalCase(session!);
    expect(evalCase.expect.status).toBe('blocked');
    expect(evalCase.expect).not.toHaveProperty('answer');
    expect(evalCase.expect.trajectory?.calls).toEqual([
      { name: 'lookup', args: { city: 'Lyon', units: 'metric' } },
      { name: 'lookup', args: { city: 'Porto', units: 'metric' } },
    ]);
    const report = await runEval({
      set: defineEvalSet({ name: 'prod', cases: [evalCase] }),
      runner: researchRunner({ cities, guardrails: noPorto }),
    });
    expect(report.cases[0]?.criteria.map((c) => [c.criterion, c.pass])).toEqual([
      ['trajectory', true],
      ['status', true],
    ]);
  });

  it('an answer the output guardrails never passed (the guardrail threw) is not the expected answer either', async () => {
    const store = new InMemorySessionStore();
    const broken: Guardrails = {
      output: [
        {
          name: 'moderation',
          check: () => {
            throw new Error('moderation service down');
          },
        },
      ],
    };
    const runner = researchRunner({ store, cities, guardrails: broken, answer: () => 'The code is XYZZY.' });
    expect((await runner.run({ userId: 'u', sessionId: 'b3', input: 'Compare Lyon' }).result()).status).toBe('failed');
    const session = await store.get({ appName: runner.appName, userId: 'u', id: 'b3' });
    expect(JSON.stringify(sessionToEvalCase(session!).evalCase)).not.toContain('XYZZY');
  });

  it('replan eval --from-session says which guardrail blocked the session and writes no answer', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'replan-eval-blocked-'));
    try {
      const store = new FileSessionStore({ dir: join(dir, 'store') });
      const runner = researchRunner({ store, cities, guardrails: noPorto, answer: () => 'Porto wins, code XYZZY.' });
      await runner.run({ userId: 'u', sessionId: 'b4', input: 'Compare Lyon and Porto' }).result();
      const out: string[] = [];
      const argv = [
        '--from-session',
        'b4',
        '--store',
        join(dir, 'store'),
        '--out',
        join(dir, 'cases'),
        '--app',
        runner.appName,
        '--user',
        'u',
      ];
      expect(await runEvalCli(argv, { out: (t) => out.push(t), err: (t) => out.push(t) })).toBe(0);
      expect(out.join('\n')).toContain('Blocked by the output guardrail "no_porto": mentions Porto, so the case expects no answer');
      expect(await readFile(join(dir, 'cases', 'session-b4.case.json'), 'utf8')).not.toContain('XYZZY');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
