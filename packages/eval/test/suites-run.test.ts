import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSessionStore, ReActAgent, tool } from '@replan/core';
import { ReplayModel, ScriptedModel } from '@replan/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { builtinSuites, defineDomain, defineSuite, oracleModel, renderJUnit, runSuite, type Suite, type SuiteTask } from '@replan/eval';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'replan-suites-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const research = builtinSuites.research;
const firstTasks = (suite: Suite<any>, n: number): Suite<any> => ({ ...suite, tasks: suite.tasks.slice(0, n) });
const taskById = (suite: Suite<any>, id: string) => suite.tasks.find((t) => t.id === id) as SuiteTask<any>;

describe('runSuite: bad input is reported per task, and the suite goes on', () => {
  it('reports a task that fails its schema as failed, runs the others, and fails the suite', async () => {
    const good = research.tasks[0] as SuiteTask<any>;
    const suite = { ...research, tasks: [good, { ...good, id: 'empty', request: '  ' }, { ...good, id: 'bad id!' }, good] };
    const report = await runSuite({ suite, agent: 'react', oracle: true });
    const byName = Object.fromEntries(report.report.cases.map((c) => [c.name, c]));
    expect(report.report.cases.filter((c) => c.name === good.id).map((c) => c.pass)).toEqual([true, false]);
    expect(byName.empty?.runs[0]?.error?.message).toContain('request: a task needs a request');
    expect(byName['bad id!']?.runs[0]?.error?.message).toContain('id: letters, digits, - and _');
    expect(report.report.cases.find((c) => c.name === good.id && !c.pass)?.runs[0]?.error?.message).toContain('a second task with the id');
    expect(report.report.pass).toBe(false);
    // defineSuite, for suites written by hand, refuses the same tasks at once.
    expect(() => defineSuite(suite)).toThrow(expect.objectContaining({ name: 'EvalInputError', kind: 'set' }));
    expect(() => defineSuite(suite)).toThrow(/empty \(request: a task needs a request\)/);
  });

  it('fails each task, naming the error, when the model errors on every call', async () => {
    const broken = new ScriptedModel({
      respond: () => {
        throw new Error('503 the model is down');
      },
    });
    const report = await runSuite({ suite: firstTasks(research, 3), agent: 'plan-execute', model: broken });
    expect(report.report.cases).toHaveLength(3);
    for (const c of report.report.cases) {
      expect(c.pass).toBe(false);
      expect(c.criteria.find((k) => k.criterion === 'status')?.reason).toMatch(/the run ended failed: .*503 the model is down/);
    }
    expect(report.success).toBe(0);
  });

  it('shows the model a tool that throws as an error result, and scores the run by what it left', async () => {
    const domain = defineDomain({
      name: 'flaky',
      db: () => ({ saved: [] as string[] }),
      tools: (db) => [
        tool({
          name: 'explode',
          description: 'Always throws.',
          parameters: z.object({}),
          execute: () => {
            throw new TypeError('cannot read properties of undefined');
          },
        }),
        tool({
          name: 'save',
          description: 'Saves.',
          parameters: z.object({ text: z.string() }),
          execute: ({ text }) => db.saved.push(text),
        }),
      ],
      policy: 'Save what the user asks.',
    });
    const task: SuiteTask<{ saved: string[] }> = {
      id: 'save-after-error',
      request: 'Save "x".',
      expect: { db: { saved: ['x'] }, answerIncludes: ['saved'] },
      oracle: {
        plan: [{ id: 's1', task: 'Save x', calls: [{ name: 'explode' }, { name: 'save', args: { text: 'x' } }], result: 'Saved.' }],
        answer: 'I saved "x".',
      },
    };
    const report = await runSuite({ suite: defineSuite({ name: 'flaky', domain, tasks: [task] }), agent: 'react', oracle: true });
    expect(report.report.cases[0]?.pass).toBe(true);
  });

  it('refuses options it cannot run (an EvalInputError of kind set)', async () => {
    await expect(runSuite({ suite: research, agent: 'react' })).rejects.toThrow(/needs a model \(or oracle: true/);
    await expect(runSuite({ suite: research, agent: 'react', oracle: true, repeat: 0 })).rejects.toThrow(/repeat must be a whole number/);
    await expect(
      runSuite({ suite: research, agent: { name: 'mine', build: ({ model }) => new ReActAgent({ name: 'mine', model }) }, oracle: true }),
    ).rejects.toThrow(/your own agent needs a model/);
    expect(() => defineDomain({ name: 'Bad Name', db: () => ({}), tools: () => [], policy: 'p' })).toThrow(/lower-case letters/);
    expect(() => defineDomain({ name: 'ok', db: () => ({}), tools: () => [], policy: ' ' })).toThrow(/policy must be non-empty/);
  });
});

describe('runSuite: repeats, own agents, recordings', () => {
  it('gives pass^k below success when a task passes only some of its runs', async () => {
    const suite = firstTasks(research, 2);
    const report = await runSuite({
      suite,
      agent: 'react',
      repeat: 2,
      // The second run of every task answers without doing anything.
      model: ({ task, attempt }) =>
        attempt === 1 ? oracleModel('react', taskById(suite, task).oracle) : new ScriptedModel({ respond: () => 'Done.' }),
    });
    expect(report.success).toBe(0.5);
    expect(report.passK).toBe(0);
    expect(report.repeat).toBe(2);
    expect(report.report.cases.every((c) => c.runs.length === 2)).toBe(true);
  });

  it('runs your own agent, built per run from the run model, tools and policy', async () => {
    const suite = firstTasks(builtinSuites.retail, 3);
    const built: string[] = [];
    const report = await runSuite({
      suite,
      agent: {
        name: 'mine',
        build: ({ model, tools, policy }) => {
          built.push(tools.map((t) => t.name).join(','));
          return new ReActAgent({ name: 'mine', model, tools, instruction: `${policy}\nBe brief.` });
        },
      },
      model: ({ task }) => oracleModel('react', taskById(suite, task).oracle),
    });
    expect(report.agent).toBe('mine');
    expect(report.success).toBe(1);
    expect(built).toHaveLength(3);
    expect(built[0]).toContain('return_items');
  });

  it('records runs in a file store and replays them offline with ReplayModel, with no model', async () => {
    const suite = firstTasks(builtinSuites.travel, 4);
    const store = new FileSessionStore({ dir });
    const recorded = await runSuite({ suite, agent: 'plan-execute', oracle: true, sessionStore: store });
    expect(recorded.success).toBe(1);
    const replayed = await runSuite({
      suite,
      agent: 'plan-execute',
      model: async ({ suite: name, sessionId }) => {
        const session = await store.get({ appName: `replan-suite-${name}`, userId: 'suite', id: sessionId });
        if (!session) throw new Error(`no recording ${sessionId}`);
        return ReplayModel.fromSession(session);
      },
    });
    expect(replayed.success).toBe(1);
    expect(replayed.modelCalls).toBe(recorded.modelCalls);
    // A recording of another task does not solve this one: the replay is caught.
    const crossed = await runSuite({
      suite: { ...suite, tasks: [suite.tasks[0] as SuiteTask<any>] },
      agent: 'plan-execute',
      model: async () =>
        ReplayModel.fromSession(
          (await store.get({ appName: 'replan-suite-travel', userId: 'suite', id: `travel.${suite.tasks[3]?.id}.plan-execute.1` }))!,
        ),
    });
    expect(crossed.success).toBe(0);
  });

  it('writes one JUnit test suite per suite and agent', async () => {
    const a = await runSuite({ suite: firstTasks(research, 2), agent: 'react', oracle: true });
    const b = await runSuite({ suite: firstTasks(research, 2), agent: 'graph', oracle: true });
    const xml = renderJUnit([a.report, b.report]);
    expect(xml).toContain('<testsuites name="replan eval" tests="4" failures="0" errors="0"');
    expect(xml).toContain('<testsuite name="research · react"');
    expect(xml).toContain('<testsuite name="research · graph"');
  });
});
