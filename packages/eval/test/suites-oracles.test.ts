import { type AgentEvent, InMemorySessionStore } from '@replan/core';
import { describe, expect, it } from 'vitest';
import { runSuite } from '@replan/eval';
import { builtinSuites } from '../src/suites/builtin/index.js';
import { plansOfEvents, toolResultsByCallId } from '../src/run/run-observation.js';
import { suiteSessionId } from '../src/suites/run-suite.js';
import { SUITE_AGENT_KINDS } from '../src/suites/suite-agent.js';

const eventsOf = async (store: InMemorySessionStore, suite: string, task: string, agent: string) => {
  const session = await store.get({ appName: `replan-suite-${suite}`, userId: 'suite', id: suiteSessionId(suite, task, agent, 1) });
  if (!session) throw new Error(`no session for ${suite}/${task}/${agent}`);
  return session.events;
};
const approvalsOf = (events: readonly AgentEvent[]) => events.filter((e) => e.actions?.interrupt?.reason === 'approval').length;
const toolErrorsOf = (events: readonly AgentEvent[]) => [...toolResultsByCallId(events).values()].filter((r) => r.isError).length;

describe('built-in task suites, solved by their scripted oracles', () => {
  it('has three suites of 15–25 tasks, each with a request, an expectation and an oracle', () => {
    expect(Object.keys(builtinSuites).sort()).toEqual(['research', 'retail', 'travel']);
    for (const suite of Object.values(builtinSuites)) {
      expect(suite.tasks.length).toBeGreaterThanOrEqual(15);
      expect(suite.tasks.length).toBeLessThanOrEqual(25);
      // Some tasks need a replan after a tool error, some have a step the policy forbids.
      expect(suite.tasks.filter((t) => t.tags?.includes('replan')).length).toBeGreaterThanOrEqual(2);
      expect(suite.tasks.filter((t) => t.tags?.includes('policy')).length).toBeGreaterThanOrEqual(1);
    }
  });

  for (const [name, suite] of Object.entries(builtinSuites))
    for (const agent of SUITE_AGENT_KINDS)
      it(`${name}: every task passes as ${agent}, and each does what its tags say`, async () => {
        const store = new InMemorySessionStore();
        const report = await runSuite({ suite, agent, oracle: true, sessionStore: store, concurrency: 4 });
        const failing = report.report.cases.filter((c) => !c.pass).map((c) => `${c.name}: ${JSON.stringify(c.criteria)}`);
        expect(failing).toEqual([]);
        expect(report.success).toBe(1);
        expect(report.report.cases).toHaveLength(suite.tasks.length);
        expect(report.modelCalls).toBeGreaterThanOrEqual(suite.tasks.length * 2);
        for (const task of suite.tasks) {
          const events = await eventsOf(store, name, task.id, agent);
          if (task.tags?.includes('approval')) expect(approvalsOf(events), `${task.id} asks for approval`).toBeGreaterThan(0);
          if (task.tags?.includes('replan') || task.tags?.includes('tool-error'))
            expect(toolErrorsOf(events), `${task.id} meets a tool error`).toBeGreaterThan(0);
          if (task.tags?.includes('replan') && agent !== 'react') {
            const { plans, replans } = plansOfEvents(events);
            expect(replans, `${task.id} is replanned`).toBeGreaterThan(0);
            // The revision holds the recovery steps the first plan did not.
            const recovery = task.oracle.replan?.map((s) => s.task) ?? [];
            expect(plans.flat(), `${task.id}'s revision`).toEqual(expect.arrayContaining(recovery));
          }
        }
      });

  it('runs the independent steps of a graph plan at the same time', async () => {
    const task = builtinSuites.research.tasks.find((t) => t.id === 'metro-compare');
    expect(task?.tags).toContain('parallel');
    const store = new InMemorySessionStore();
    await runSuite({
      suite: { ...builtinSuites.research, tasks: [task as NonNullable<typeof task>] },
      agent: 'graph',
      oracle: true,
      sessionStore: store,
    });
    const events = await eventsOf(store, 'research', 'metro-compare', 'graph');
    // Both reads are called before either result is stored: the two steps ran side by side.
    const order = events.flatMap(
      (e) =>
        e.message?.content.flatMap((b) =>
          b.type === 'tool_call' ? [`call ${b.args.id}`] : b.type === 'tool_result' ? [`result ${b.name}`] : [],
        ) ?? [],
    );
    expect(order.indexOf('call D2')).toBeLessThan(order.indexOf('result read_doc'));
    expect(order.indexOf('call D3')).toBeLessThan(order.indexOf('result read_doc'));
  });
});
