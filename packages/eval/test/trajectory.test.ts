import { describe, expect, it } from 'vitest';
import { judgeTrajectory } from '../src/criteria/trajectory-criterion.js';
import type { RunObservation } from '../src/run/run-observation.js';
import { arg, defineEvalSet, runEval } from '@replan/eval';
import { researchRunner } from './support/agents.js';
import type { TrajectoryMode } from '../src/set/eval-case.js';
import type { ExpectedToolCall } from '../src/set/eval-case.js';

let id = 0;
/** A run that made these calls (each with a fresh id, as a provider gives). */
function made(...calls: [string, Record<string, unknown>][]): RunObservation {
  return {
    input: '',
    status: 'completed',
    answer: 'ok',
    toolCalls: calls.map(([name, args]) => ({ name, args, path: 'agent', callId: `call_${++id}` })),
    plans: [],
    executedSteps: 0,
    replans: 0,
    cost: 0,
    usage: { inputTokens: 0, outputTokens: 0 },
    latencyMs: 1,
    unpricedModelCalls: 0,
  };
}

const judge = (mode: TrajectoryMode, calls: ExpectedToolCall[], run: RunObservation) => judgeTrajectory({ mode, calls }, run);
const search = (q: string): ExpectedToolCall => ({ name: 'search', args: { q } });
const run = made(['search', { q: 'a' }], ['fetch', { url: 'x' }], ['search', { q: 'b' }]);

describe('trajectory', () => {
  it('exact: the same calls in the same order pass; a missing, extra or reordered call fails with where', () => {
    expect(judge('exact', [search('a'), { name: 'fetch' }, search('b')], run)).toMatchObject({ pass: true, score: 1 });
    const reordered = judge('exact', [search('b'), { name: 'fetch' }, search('a')], run);
    expect(reordered).toMatchObject({ pass: false, score: 1 / 3 });
    expect(reordered.reason).toMatch(/^call #1: search args q: expected "b", got "a" — made: search, fetch, search$/);
    const extra = judge('exact', [search('a'), { name: 'fetch' }], run);
    expect(extra).toMatchObject({ pass: false, score: 2 / 3 });
    expect(extra.reason).toContain('unexpected call #3 (search)');
    expect(judge('exact', [search('a'), { name: 'fetch' }, search('b'), search('c')], run).reason).toContain(
      'expected call #4 (search) was not made',
    );
    expect(judge('exact', [], made())).toMatchObject({ pass: true, score: 1 });
  });

  it('in-order: the expected calls in order, with others between, pass; out of order fails', () => {
    expect(judge('in-order', [search('a'), search('b')], run)).toMatchObject({ pass: true, score: 1 });
    const wrongOrder = judge('in-order', [search('b'), search('a')], run);
    expect(wrongOrder).toMatchObject({ pass: false, score: 0.5 });
    expect(wrongOrder.reason).toContain('expected call #2 (search)');
    expect(wrongOrder.reason).toContain('(it came too early)');
  });

  it('any-order: each expected call matched by a different call, in any order; a call cannot count twice', () => {
    expect(judge('any-order', [search('b'), { name: 'fetch' }, search('a')], run)).toMatchObject({ pass: true, score: 1 });
    // Two expected searches for "a", one made: the second finds no call of its own.
    const twice = judge('any-order', [search('a'), search('a')], run);
    expect(twice).toMatchObject({ pass: false, score: 0.5 });
    // The greedy choice (first call for the loose matcher) would leave the strict one unmatched.
    const loose: ExpectedToolCall = { name: 'search', args: { q: arg.any('string') } };
    expect(judge('any-order', [loose, search('a')], made(['search', { q: 'a' }], ['search', { q: 'z' }]))).toMatchObject({ pass: true });
    expect(judge('any-order', [{ name: 'delete' }], run).reason).toContain('expected call #1 (delete): delete was not called');
  });

  it('args: omitted or "ignore" are not compared; an unlisted field fails unless arg.ignore; ids are never compared', () => {
    expect(judge('exact', [{ name: 'fetch', args: 'ignore' }], made(['fetch', { url: 'y', extra: 1 }]))).toMatchObject({ pass: true });
    const unlisted = judge('exact', [{ name: 'fetch', args: { url: 'y' } }], made(['fetch', { url: 'y', extra: 1 }]));
    expect(unlisted.reason).toContain('extra: not expected (got 1)');
    expect(judge('exact', [{ name: 'fetch', args: { url: 'y', extra: arg.ignore } }], made(['fetch', { url: 'y', extra: 1 }])).pass).toBe(
      true,
    );
    expect(judge('exact', [{ name: 'fetch', args: { url: 'y', extra: arg.ignore } }], made(['fetch', { url: 'y' }])).pass).toBe(true);
  });
});

describe('trajectory of real runs', () => {
  it('volatile tool-call ids (new on every run) do not break a trajectory match', async () => {
    const runner = researchRunner({ cities: () => ['Lyon', 'Porto'] });
    const calls = [
      { name: 'lookup', args: { city: 'Lyon', units: 'metric' } },
      { name: 'lookup', args: { city: 'Porto', units: 'metric' } },
    ];
    const set = defineEvalSet({
      name: 'ids',
      cases: [{ name: 'two lookups', input: 'Compare', expect: { trajectory: { mode: 'exact', calls } } }],
    });
    const report = await runEval({ set, runner, repeat: 3 });
    expect(report.cases[0]?.passRate).toBe(1);
    // The ids really differed: every stored lookup call has its own.
    const ids = new Set<string>();
    for (const sessionId of report.cases[0]?.sessionIds ?? []) {
      const session = await runner.sessionStore.get({ appName: 'eval-test', userId: 'eval', id: sessionId });
      for (const event of session?.events ?? [])
        for (const block of event.message?.content ?? []) if (block.type === 'tool_call' && block.name === 'lookup') ids.add(block.id);
    }
    expect(ids.size).toBe(6);
  });

  it('leaves the planner’s plan and the replanner’s respond calls out of the trajectory', async () => {
    const set = defineEvalSet({
      name: 'decisions',
      cases: [{ name: 'one lookup', input: 'Lyon', expect: { trajectory: { mode: 'exact', calls: [{ name: 'lookup' }] } } }],
    });
    const report = await runEval({ set, runner: researchRunner() });
    expect(report.cases[0]?.criteria[0]).toMatchObject({ pass: true, reason: 'exactly the 1 expected call(s)' });
  });
});
