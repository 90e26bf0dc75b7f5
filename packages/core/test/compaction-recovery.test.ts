import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CompactionError,
  ConfigurationError,
  FileSessionStore,
  InMemorySessionStore,
  type ModelRequest,
  ReActAgent,
  Runner,
  messageText,
  compaction,
} from '@replan/core';
import { ReplayModel, ScriptedModel, replayTools } from '@replan/core/testing';
import { collect } from './support.js';
import { longStep } from './support/long-step.js';
import { compactingRunner as runner, WINDOW } from './support/compacting-runner.js';

// Compaction across a resume, with bad input, and under replay (the loop itself: compaction.test.ts; a resume
// in another process after a kill: compaction-recovery-processes.test.ts).
describe('compaction and resume', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  it('abort mid-step, resume in a new Runner on the file store: no tool re-run, no compaction redone', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'replan-compaction-'));
    dirs.push(dir);
    const calls: string[] = [];
    const controller = new AbortController();
    const step = longStep(40, {
      onCall: (who) => {
        calls.push(who);
        if (who === 'act' && step.fetched() === 25 && !controller.signal.aborted) {
          controller.abort(new Error('stop here'));
          throw controller.signal.reason;
        }
      },
    });
    const first = await collect(
      runner(step, {}, new FileSessionStore({ dir })).run({ userId: 'u', input: 'go', signal: controller.signal }),
    );
    expect(first.result.status).toBe('aborted');
    const summariesBefore = step.summarizer.calls;
    expect(summariesBefore).toBeGreaterThan(0);
    calls.length = 0;

    const second = await collect(
      runner(step, {}, new FileSessionStore({ dir })).resume({ userId: 'u', sessionId: first.result.sessionId }),
    );
    expect(second.result.status).toBe('completed');
    expect(second.result.output).toBe('facts kept: 40');
    expect(step.runs).toEqual(Array.from({ length: 40 }, (_, i) => i + 1)); // no tool ran twice
    expect(calls[0]).toBe('act'); // the stored summary was read back, not written again
    const resumedFirst = step.actor.requests.at(-calls.filter((c) => c === 'act').length) as ModelRequest;
    expect(resumedFirst.messages.some((m) => messageText(m).includes('[summary]'))).toBe(true);
    const session = await new FileSessionStore({ dir }).get({ appName: 'long', userId: 'u', id: first.result.sessionId });
    expect(session?.events.filter((e) => e.actions?.compaction)).toHaveLength(step.summarizer.calls);
  });
});

describe('compaction bad input', () => {
  it('a summarizer that fails: the run fails with CompactionError, nothing lost, and resumes', async () => {
    const step = longStep(20);
    let broken = true;
    const flaky = new ScriptedModel({
      id: 'summarizer',
      respond: (request) => (broken ? new Error('summarizer down') : step.summarizer.generate(request)),
    });
    const agent = new ReActAgent({
      name: 'researcher',
      model: step.actor,
      tools: [step.fetchSource],
      maxIterations: 100,
      middleware: [compaction({ model: flaky, maxInputTokens: WINDOW })],
    });
    const run = new Runner({ agent, appName: 'long' });
    const first = await collect(run.run({ userId: 'u', input: 'go' }));
    expect(first.result.status).toBe('failed');
    expect(first.result.error).toBeInstanceOf(CompactionError);
    expect(first.result.error?.message).toMatch(/Compaction .* summarizer .* failed/);
    const fetchedBefore = step.runs.length;
    expect(fetchedBefore).toBeGreaterThan(0);
    broken = false;
    const second = await collect(run.resume({ userId: 'u', sessionId: first.result.sessionId }));
    expect(second.result.status).toBe('completed');
    expect(second.result.output).toBe('facts kept: 20');
    expect(step.runs).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('a summarizer that returns nothing: CompactionError naming it', async () => {
    const step = longStep(20);
    const empty = new ScriptedModel({ id: 'summarizer', respond: () => '   ' });
    const agent = new ReActAgent({
      name: 'researcher',
      model: step.actor,
      tools: [step.fetchSource],
      maxIterations: 100,
      middleware: [compaction({ model: empty, maxInputTokens: WINDOW })],
    });
    const { result } = await collect(new Runner({ agent, appName: 'long' }).run({ userId: 'u', input: 'go' }));
    expect(result.status).toBe('failed');
    expect(result.error).toBeInstanceOf(CompactionError);
    expect(result.error?.message).toContain('returned no text');
    expect(empty.calls).toBe(1);
  });

  it('maxInputTokens smaller than the verbatim part: an error saying so, no model call, no loop', async () => {
    const step = longStep(3);
    const agent = new ReActAgent({
      name: 'researcher',
      model: step.actor,
      tools: [step.fetchSource],
      instruction: 'Be thorough. '.repeat(1000),
      middleware: [compaction({ model: step.summarizer, maxInputTokens: 1000 })],
    });
    const { result } = await collect(new Runner({ agent, appName: 'long' }).run({ userId: 'u', input: 'go' }));
    expect(result.status).toBe('failed');
    expect(result.error).toBeInstanceOf(CompactionError);
    expect(result.error?.message).toMatch(/verbatim .* not below maxInputTokens \(1000\)/);
    expect(step.actor.calls).toBe(0);
    expect(step.summarizer.calls).toBe(0);
  });

  it('a ratio out of range is a ConfigurationError when made; no window to go by, at the first model call', async () => {
    const model = new ScriptedModel({ responses: ['never'] });
    const windowless = new ReActAgent({ name: 'a', model, middleware: [compaction({})] });
    const result = await new Runner({ agent: windowless, appName: 'c' }).run({ userId: 'u', input: 'x' }).result();
    expect(result.status).toBe('failed');
    expect(result.error).toBeInstanceOf(ConfigurationError);
    expect(result.error?.message).toMatch(/ReActAgent "a": compaction needs maxInputTokens/);
    expect(model.calls).toBe(0);
    expect(() => compaction({ maxInputTokens: 1000, triggerRatio: 0 })).toThrow(ConfigurationError);
    expect(() => compaction({ triggerRatio: 1.5 })).toThrow(/triggerRatio/);
    expect(() => compaction({ maxInputTokens: 1000, keepRecentTokens: 900 })).toThrow(/keepRecentTokens/);
    // The model's contextWindow is the default window.
    expect(
      () => new ReActAgent({ name: 'a', model: new ScriptedModel({ contextWindow: 8000 }), middleware: [compaction({})] }),
    ).not.toThrow();
  });
});

describe('compaction and replay', () => {
  it('a recorded run with compactions replays offline: the summaries are served from the log', async () => {
    const step = longStep(30);
    const store = new InMemorySessionStore();
    const recorded = await collect(runner(step, {}, store).run({ userId: 'u', input: 'go' }));
    expect(recorded.result.status).toBe('completed');
    const session = await store.get({ appName: 'long', userId: 'u', id: recorded.result.sessionId });
    if (!session) throw new Error('no session');
    const model = ReplayModel.fromSession(session);
    const agent = new ReActAgent({
      name: 'researcher',
      model,
      tools: replayTools(session, [step.fetchSource]),
      instruction: 'Fetch every source, then report.',
      maxIterations: 100,
      middleware: [compaction({ model, maxInputTokens: WINDOW })],
    });
    const runsBefore = step.runs.length;
    const replayed = await collect(new Runner({ agent, appName: 'long' }).run({ userId: 'u', input: 'go' }));
    expect(replayed.result.error?.message).toBeUndefined();
    expect(replayed.result.output).toBe('facts kept: 30');
    expect(step.runs.length).toBe(runsBefore); // no tool ran live
    expect(replayed.events.filter((e) => e.actions?.compaction).length).toBe(recorded.events.filter((e) => e.actions?.compaction).length);
  });
});
