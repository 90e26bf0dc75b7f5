import { agentTool, InMemorySessionStore, ReActAgent, Runner, tool } from '@replan/core';
import { callTools, ReplayModel, ScriptedModel } from '@replan/core/testing';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { count, runnerLabel } from '../web/src/format.js';
import { escapeHidden, splitHidden } from '../web/src/visible-text.js';
import { listOpenInterrupts } from '../src/open-interrupts.js';
import { runnerView } from '../src/runner-models.js';
import { SessionReader } from '../src/session-reader.js';
import { approvalScenario, graphScenario, questionScenario } from './support/scenarios.js';

/** Waits until `Date.now()` has moved on, so that the next write's timestamp is later than the last one's. */
async function nextMillisecond(): Promise<void> {
  const start = Date.now();
  while (Date.now() <= start) await new Promise((resolve) => setTimeout(resolve, 1));
}

describe('open interrupts across apps and users', () => {
  it('lists what waits in any app and user, newest first: a nested question once, under its root; answered ones not', async () => {
    const store = new InMemorySessionStore();
    const graph = graphScenario(store, 'alpha', 0);
    graph.release();
    await graph.runner.run({ userId: 'ana', sessionId: 'done', input: 'go' }).result();
    const approvals = approvalScenario(store, 'beta');
    const asked = await approvals.run({ userId: 'bo', sessionId: 'pay', input: 'send' }).result();
    // "Newest first" compares millisecond timestamps: each listed session is written in a later millisecond.
    await nextMillisecond();
    await questionScenario(store, 'gamma').run({ userId: 'cy', sessionId: 'budget', input: 'ask' }).result();
    await nextMillisecond();
    await approvals.run({ userId: 'bo', sessionId: 'answered', input: 'send' }).result();
    const answered = (await store.get({ appName: 'beta', userId: 'bo', id: 'answered' }))!;
    await approvals
      .resume({ userId: 'bo', sessionId: 'answered', values: { [answered.events.at(-1)!.actions!.interrupt!.id]: true } })
      .result();
    // An agent run as a tool asks inside its child session: the question is listed once, under the root session.
    const publish = tool({
      name: 'publish',
      description: 'Publishes.',
      parameters: z.object({ title: z.string() }),
      needsApproval: true,
      execute: () => 'published',
    });
    const writer = new ReActAgent({
      name: 'writer',
      model: new ScriptedModel({ responses: [callTools({ name: 'publish', args: { title: 'Tides' }, id: 'a1' })] }),
      tools: [publish],
    });
    const root = new ReActAgent({
      name: 'root',
      model: new ScriptedModel({ responses: [callTools({ name: 'write', args: { input: 'a post' }, id: 'o1' })] }),
      tools: [agentTool(writer, { name: 'write' })],
    });
    await new Runner({ agent: root, appName: 'beta', sessionStore: store })
      .run({ userId: 'bo', sessionId: 'nested', input: 'go' })
      .result();
    expect((await store.list({ appName: 'beta', userId: 'bo', limit: 10 })).sessions).toHaveLength(4); // with the child session
    const owners = {
      apps: ['alpha', 'beta', 'delta', 'gamma'],
      users: { alpha: ['ana'], beta: ['bo'], delta: [], gamma: ['cy'] },
      discovery: 'hints',
    };
    const list = await listOpenInterrupts(new SessionReader(store), owners);
    expect(list.interrupts.map((r) => [r.appName, r.userId, r.sessionId, r.interrupt.id])).toEqual([
      ['beta', 'bo', 'nested', 'o1/a1:approval'],
      ['gamma', 'cy', 'budget', expect.any(String)],
      ['beta', 'bo', 'pay', asked.interrupts[0]!.id],
    ]);
    expect(list.interrupts[2]).toMatchObject({
      interrupt: { reason: 'approval', toolName: 'send_report' },
      summary: 'send_report({"to":"team@example.com"})',
    });
    expect(list.interrupts[1]).toMatchObject({ interrupt: { reason: 'question' }, summary: '{ "question": "What is the budget?" }' });
    expect(list).toMatchObject({ scanned: 6, complete: true, appsWithoutUsers: ['delta'] });
    // At its limit the look stops, and says so.
    expect(await listOpenInterrupts(new SessionReader(store), owners, 2)).toMatchObject({ scanned: 2, complete: false });
  });
});

describe('runners: which models answer offline', () => {
  it('finds the models inside a plan–execute agent and marks scripted and replay ones', () => {
    const store = new InMemorySessionStore();
    const scripted = new ScriptedModel({ id: 'script-1', respond: () => 'x' });
    const live = { id: 'gpt-live', generate: scripted.generate.bind(scripted), stream: scripted.stream.bind(scripted) };
    const replay = ReplayModel.fromSession([], { id: 'replayed' });
    const runner = (planner: unknown, executor: unknown) =>
      new Runner({
        agent: createPlanExecuteAgent({ model: planner as ScriptedModel, executorModel: executor as ScriptedModel }),
        appName: 'app',
        sessionStore: store,
      });
    expect(runnerView(runner(scripted, scripted))).toEqual({ app: 'app', models: [{ id: 'script-1', offline: 'scripted' }] });
    const mixed = runnerView(runner(live, scripted));
    expect(mixed.models).toEqual(expect.arrayContaining([{ id: 'gpt-live' }, { id: 'script-1', offline: 'scripted' }]));
    expect(runnerLabel(mixed)).toBe('app (partly scripted, offline)');
    expect(runnerLabel(runnerView(runner(scripted, scripted)))).toBe('app (scripted, offline)');
    expect(runnerLabel(runnerView(runner(live, live)))).toBe('app');
    expect(runnerView(runner(replay, replay)).models).toEqual([{ id: 'replayed', offline: 'replay' }]);
  });
});

describe('page text', () => {
  it('counts with the singular for one', () => {
    expect([count(0, 'event'), count(1, 'event'), count(2, 'event'), count(1, 'model call'), count(3, 'model call')]).toEqual([
      '0 events',
      '1 event',
      '2 events',
      '1 model call',
      '3 model calls',
    ]);
    expect(count(12_000, 'session')).toMatch(/^12.000 sessions$/);
  });

  it('shows hidden characters as codes, and keeps line breaks, tabs and emoji sequences', () => {
    expect(escapeHidden('invoice\u202Efdp.exe')).toBe('invoice⟨U+202E⟩fdp.exe');
    expect(escapeHidden('pay\u200Bpal \u2066x\u2069 \u0007 \u00AD \uFEFF \u{E0041}')).toBe(
      'pay⟨U+200B⟩pal ⟨U+2066⟩x⟨U+2069⟩ ⟨U+0007⟩ ⟨U+00AD⟩ ⟨U+FEFF⟩ ⟨U+E0041⟩',
    );
    expect(escapeHidden('a\tb\nc\r\n')).toBe('a\tb\nc\r\n');
    expect(escapeHidden('👩\u200D💻 and a lone \u200D')).toBe('👩\u200D💻 and a lone ⟨U+200D⟩');
    expect(escapeHidden('lone \uD800 surrogate')).toBe('lone ⟨U+D800⟩ surrogate');
    expect(splitHidden('a\u202Eb')).toEqual(['a', { hidden: '\u202E' }, 'b']);
    expect(splitHidden('plain')).toEqual(['plain']);
  });
});
