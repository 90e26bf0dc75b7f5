import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  FileSessionStore,
  InMemorySessionStore,
  type ReplayError,
  type AgentEvent,
  type ChatModel,
  type Message,
  type ModelCallOptions,
  type ModelRequest,
  type ModelResponse,
  type Session,
  type Tool,
} from '@replan/core';
import { raceAbort, type ModelStreamPart } from '@replan/core/agent-kit';
import { ReplayModel, ScriptedModel, callTools, recordedToolCalls, replayTools } from '@replan/core/testing';
import { createExecutor, createPlanExecuteAgent, createPlanner, createReplanner } from '@replan/planexecute';
import { collect, countingTool, harness, planCall, respondCall, runnerFor } from './support.js';
import { TaskModel, graphCall, graphPairs } from './graph-support.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A model that waits before each call, by the calling agent's path: to change which graph step calls first. */
class DelayedModel implements ChatModel {
  readonly id: string;
  constructor(
    private readonly inner: ChatModel,
    private readonly delayFor: (path: string) => number,
  ) {
    this.id = inner.id;
  }
  private async wait(opts: ModelCallOptions): Promise<void> {
    const ms = this.delayFor(opts.agent?.path ?? '');
    if (ms) await (opts.signal ? raceAbort(sleep(ms), opts.signal) : sleep(ms));
  }
  async generate(request: ModelRequest, opts: ModelCallOptions = {}): Promise<ModelResponse> {
    await this.wait(opts);
    return this.inner.generate(request, opts);
  }
  async *stream(request: ModelRequest, opts: ModelCallOptions = {}): AsyncIterable<ModelStreamPart> {
    await this.wait(opts);
    yield* this.inner.stream(request, opts);
  }
}

/** A graph plan–execute agent over the given models (one model may play every role) and tools. */
function graphAgent(
  models: { planner: ChatModel; executor: ChatModel; replanner: ChatModel },
  tools: readonly Tool[],
  instruction?: string,
) {
  return createPlanExecuteAgent({
    mode: 'graph',
    planner: createPlanner({ model: models.planner }),
    executor: createExecutor({ model: models.executor, tools, ...(instruction ? { instruction } : {}) }),
    replanner: createReplanner({ model: models.replanner }),
  });
}

const PLAN = graphCall(['A', 'look up a', []], ['B', 'look up b', []], ['C', 'combine $A and $B', ['A', 'B']]);
/** The executor's script (new tool-call ids each time, as a provider would mint). */
const stepScript = () => ({
  'look up a': [callTools({ name: 'lookup', args: { q: 'a' } }), 'a is 1'],
  'look up b': [callTools({ name: 'lookup', args: { q: 'b' } }), 'b is 2'],
  'combine a is 1 and b is 2': ['1 + 2 = 3'],
});

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'replan-replay-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Records the graph run on a file store (step A slow, so B finishes first) and reads it back from a fresh store. */
async function record(): Promise<{ session: Session; answer: string | undefined; order: unknown[] }> {
  const lookup = countingTool('lookup', ({ q }) => `value of ${q}`);
  const models = {
    planner: new ScriptedModel({ responses: [PLAN] }),
    executor: new DelayedModel(new TaskModel(stepScript()), (path) => (path.endsWith('/A') ? 15 : 0)),
    replanner: new ScriptedModel({ responses: [respondCall('the answer is 3')] }),
  };
  const h = runnerFor(graphAgent(models, [lookup.tool]), new FileSessionStore({ dir }));
  const { result } = await collect(h.runner.run({ userId: 'u', input: 'add a and b' }));
  expect(result.status).toBe('completed');
  expect(lookup.calls.sort()).toEqual(['a', 'b']);
  const order = graphPairs(await h.state(result.sessionId)).map(([id]) => id);
  expect(order).toEqual(['B', 'A', 'C']);
  const session = await new FileSessionStore({ dir }).get({ appName: 'pe-test', userId: 'u', id: result.sessionId });
  if (!session) throw new Error('the recorded session is missing');
  return { session, answer: result.output, order };
}

/** `meta.request` of an event that stores a model response. */
/** The parts of `meta.request` (core's stored request record) these tests read. */
const requestOf = (event: AgentEvent) => event.meta?.request as { readonly fingerprint: string; readonly response?: Message };

const callsOf = (events: readonly AgentEvent[]) =>
  recordedToolCalls(events)
    .map((c) => `${c.path} ${c.name} ${JSON.stringify(c.args)} -> ${JSON.stringify(c.result ?? c.error)} [${c.callId}]`)
    .sort();

describe('replaying a stored graph run', () => {
  it('every model response stored by the graph run carries a request fingerprint', async () => {
    const { session } = await record();
    const stamped = session.events.filter((e) => e.meta?.request);
    // planner 1, A 2, B 2, C 1, replanner 1
    expect(stamped.map((e) => e.path.split('/').slice(-1)[0]).sort()).toEqual(['A', 'A', 'B', 'B', 'C', 'planner', 'replanner']);
    for (const e of stamped) expect(requestOf(e).fingerprint).toMatch(/^[0-9a-f]{16}$/);
    // The replanner stored its answer as text: the raw `respond` call rides along for the replay.
    const answer = stamped.find((e) => e.path.endsWith('replanner'));
    expect(answer && requestOf(answer).response?.content[0]).toMatchObject({ name: 'respond' });
  });

  it('replays with no scripted model: same answer, same tool calls, no tool side effects, whatever order steps start in', async () => {
    const { session, answer } = await record();
    for (const stream of [false, true]) {
      const lookup = countingTool('lookup', () => 'must not run');
      const replay = ReplayModel.fromSession(session);
      // This time B's calls come late, so A calls first; the replay still answers in the recorded order (B's first).
      const started: string[] = [];
      const model = new DelayedModel(replay, (path) => {
        if (/\/executor\/[AB]$/.test(path) && !started.some((p) => p === path)) started.push(path);
        return path.endsWith('/B') ? 15 : 0;
      });
      const h = runnerFor(
        graphAgent({ planner: model, executor: model, replanner: model }, replayTools(session, [lookup.tool])),
        new InMemorySessionStore(),
      );
      const { result } = await collect(h.runner.run({ userId: 'u', input: 'add a and b', stream }));
      expect(result.status, result.error?.message).toBe('completed');
      expect(result.output).toBe(answer);
      expect(lookup.calls).toEqual([]); // recorded results, no side effect
      const replayed = await h.events(result.sessionId);
      expect(callsOf(replayed)).toEqual(callsOf(session.events));
      expect(started.map((p) => p.slice(-1))).toEqual(['A', 'B']);
      expect(graphPairs(await h.state(result.sessionId)).map(([id]) => id)).toEqual(['B', 'A', 'C']);
      expect(replay.finished).toBe(true);
      expect([...replay.progress.values()].every((p) => p.served === p.recorded && p.recorded > 0)).toBe(true);
      // The replayed run records the same fingerprints, path by path.
      const fingerprints = (events: readonly AgentEvent[]) =>
        events
          .filter((e) => e.meta?.request)
          .map((e) => `${e.path} ${requestOf(e).fingerprint}`)
          .sort();
      expect(fingerprints(replayed)).toEqual(fingerprints(session.events));
    }
  });

  it('a changed executor instruction fails strict replay, naming the step path and the instruction', async () => {
    const { session } = await record();
    const lookup = countingTool('lookup');
    const model = ReplayModel.fromSession(session);
    const agent = graphAgent(
      { planner: model, executor: model, replanner: model },
      replayTools(session, [lookup.tool]),
      'You are a careful new executor.',
    );
    const h = runnerFor(agent);
    const { result } = await collect(h.runner.run({ userId: 'u', input: 'add a and b' }));
    expect(result.status).toBe('failed');
    expect(result.error).toMatchObject({ name: 'ReplayError', kind: 'mismatch' });
    const error = result.error as ReplayError;
    expect(error.path).toMatch(/\/executor\/[AB]$/);
    expect(error.callIndex).toBe(0);
    expect(error.differences).toContain('the system prompt / instruction differs');
    expect(error.message).toContain(error.path);
    expect(lookup.calls).toEqual([]);
  });

  it('with a fallback, replays up to the first difference and continues live from there', async () => {
    const { session } = await record();
    const lookup = countingTool('lookup', ({ q }) => `live ${q}`);
    const live = new TaskModel({
      'look up a': [callTools({ name: 'lookup', args: { q: 'a' } }), 'a is 10'],
      'look up b': [callTools({ name: 'lookup', args: { q: 'b' } }), 'b is 20'],
      'combine a is 10 and b is 20': ['10 + 20 = 30'],
    });
    const liveReplanner = new ScriptedModel({ responses: [respondCall('the answer is 30')] });
    const fallback: ChatModel = {
      id: 'live',
      generate: (request, opts) => (opts?.agent?.path.endsWith('replanner') ? liveReplanner : live).generate(request, opts),
      stream: (request, opts) => (opts?.agent?.path.endsWith('replanner') ? liveReplanner : live).stream(request, opts),
    };
    const model = ReplayModel.fromSession(session, { fallback });
    const agent = graphAgent(
      { planner: model, executor: model, replanner: model },
      replayTools(session, [lookup.tool]),
      'A new executor prompt.',
    );
    const h = runnerFor(agent);
    const { result } = await collect(h.runner.run({ userId: 'u', input: 'add a and b' }));
    expect(result.status, result.error?.message).toBe('completed');
    expect(result.output).toBe('the answer is 30');
    // The planner's request did not change: its recorded plan was replayed, not asked live.
    const planner = [...model.progress].find(([path]) => path.endsWith('/planner'));
    expect(planner?.[1]).toEqual({ served: 1, recorded: 1 });
    expect(live.callsFor('look up a')).toBe(2);
    expect(model.divergence?.path).toMatch(/\/executor\/[AB]$/);
    expect(model.divergence?.differences).toContain('the system prompt / instruction differs');
    // New tool calls (new ids from the live model) are not in the recording: they run for real.
    expect(lookup.calls.sort()).toEqual(['a', 'b']);
  });

  it('running past the recording throws a ReplayError of kind exhausted naming the path', async () => {
    const { session } = await record();
    const cut = session.events.filter((e) => !(e.meta?.request && e.path.endsWith('replanner')));
    const model = ReplayModel.fromSession(cut);
    const h = runnerFor(graphAgent({ planner: model, executor: model, replanner: model }, replayTools(cut, [countingTool('lookup').tool])));
    const { result } = await collect(h.runner.run({ userId: 'u', input: 'add a and b' }));
    expect(result.error).toMatchObject({ name: 'ReplayError', kind: 'exhausted' });
    expect((result.error as ReplayError).path).toMatch(/replanner$/);
    expect((result.error as ReplayError).recorded).toBe(0);
  });

  it('volatile tool-call ids do not change fingerprints: two recordings of the same run match', async () => {
    const first = await record();
    const second = await record();
    const ids = (s: Session) => recordedToolCalls(s).map((c) => c.callId);
    expect(ids(first.session)).not.toEqual(ids(second.session)); // new call ids each run
    const byPath = (s: Session) =>
      s.events
        .filter((e) => e.meta?.request)
        .map((e) => `${e.path} ${requestOf(e).fingerprint}`)
        .sort();
    expect(byPath(first.session)).toEqual(byPath(second.session));
  });
});

describe('replaying other plan–execute shapes', () => {
  it('linear mode with a planner repair replays every call, the repair included', async () => {
    const lookup = countingTool('lookup');
    const h = harness({
      planner: ['no plan, sorry', planCall(['look up x', 'answer'])],
      executor: [callTools({ name: 'lookup', args: { q: 'x' } }), 'x found', 'answered'],
      replanner: [planCall(['answer']), respondCall('x it is')],
      tools: [lookup.tool],
    });
    const { result } = await collect(h.runner.run({ userId: 'u', input: 'find x' }));
    expect(result.status).toBe('completed');
    const session = { events: await h.events(result.sessionId) };
    // planner: the repaired answer and the plan; executor: 3; replanner: 2
    expect(session.events.filter((e) => e.meta?.request)).toHaveLength(7);

    const replayedLookup = countingTool('lookup');
    const model = ReplayModel.fromSession(session);
    const agent = createPlanExecuteAgent({
      planner: createPlanner({ model }),
      executor: createExecutor({ model, tools: replayTools(session, [replayedLookup.tool]) }),
      replanner: createReplanner({ model }),
    });
    const replay = await collect(runnerFor(agent).runner.run({ userId: 'u', input: 'find x', stream: true }));
    expect(replay.result.status, replay.result.error?.message).toBe('completed');
    expect(replay.result.output).toBe('x it is');
    expect(replayedLookup.calls).toEqual([]);
    expect(model.finished).toBe(true);
  });

  it('the streaming graph planner replays from its streamed plan, steps starting mid-stream', async () => {
    const build = (planner: ChatModel, executor: ChatModel, replanner: ChatModel, tools: readonly Tool[]) =>
      createPlanExecuteAgent({
        mode: 'graph',
        streamingPlan: true,
        planner: createPlanner({ model: planner }),
        executor: createExecutor({ model: executor, tools }),
        replanner: createReplanner({ model: replanner }),
      });
    const lookup = countingTool('lookup', ({ q }) => `value of ${q}`);
    const recorded = runnerFor(
      build(
        new ScriptedModel({ responses: [PLAN], argsChunkSize: 16 }),
        new TaskModel(stepScript()),
        new ScriptedModel({ responses: [respondCall('3')] }),
        [lookup.tool],
      ),
    );
    const { result } = await collect(recorded.runner.run({ userId: 'u', input: 'add a and b', stream: true }));
    expect(result.status, result.error?.message).toBe('completed');
    const session = { events: await recorded.events(result.sessionId) };

    const model = ReplayModel.fromSession(session);
    const replayedLookup = countingTool('lookup');
    const replay = runnerFor(build(model, model, model, replayTools(session, [replayedLookup.tool])));
    const again = await collect(replay.runner.run({ userId: 'u', input: 'add a and b', stream: true }));
    expect(again.result.status, again.result.error?.message).toBe('completed');
    expect(again.result.output).toBe('3');
    expect(replayedLookup.calls).toEqual([]);
    expect(model.finished).toBe(true);
    expect(callsOf(await replay.events(again.result.sessionId))).toEqual(callsOf(session.events));
  });
});
