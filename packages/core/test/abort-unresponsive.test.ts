import { describe, expect, it } from 'vitest';
import { type Guardrail, InMemorySessionStore, ReActAgent, Runner, type RunResult, guardrails } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';
import { compactingRunner } from './support/compacting-runner.js';
import { longStep } from './support/long-step.js';

const user = { userId: 'u', sessionId: 's' };

/** A promise that never settles, and a way to know it was reached: a callee that ignores its signal. */
function hang() {
  let reached!: () => void;
  const started = new Promise<void>((resolve) => (reached = resolve));
  let hung = 0;
  return {
    started,
    /** Hangs on its first call only, so a resume goes through. */
    once: (): Promise<void> | undefined => {
      if (hung++ > 0) return undefined;
      reached();
      return new Promise<never>(() => undefined);
    },
  };
}

/** Aborts the run once `started`, and expects it to end aborted promptly. */
async function abortWhen(run: { abort(reason?: unknown): void; result(): Promise<RunResult> }, started: Promise<void>) {
  await started;
  const before = Date.now();
  run.abort('user pressed stop');
  const result = await run.result();
  expect(result.status).toBe('aborted');
  expect(result.error?.name).toBe('RunAbortedError');
  expect(Date.now() - before).toBeLessThan(2_000);
  return result;
}

describe('abort ends a run whose model, summarizer or guardrail ignores the signal', () => {
  for (const stream of [false, true]) {
    it(`a model call that never settles (${stream ? 'stream' : 'generate'}): aborted promptly, the session resumes`, async () => {
      const stuck = hang();
      const model = new ScriptedModel({ respond: async () => (await stuck.once(), 'the answer') });
      const runner = new Runner({ agent: new ReActAgent({ name: 'a', model }), appName: 'app', sessionStore: new InMemorySessionStore() });
      await abortWhen(runner.run({ ...user, input: 'go', stream }), stuck.started);

      const resumed = await runner.resume({ ...user, stream }).result();
      expect(resumed.status).toBe('completed');
      expect(resumed.output).toBe('the answer');
    });
  }

  it('an input guardrail that never settles: aborted promptly, not a GuardrailError; the session resumes', async () => {
    const stuck = hang();
    const slowCheck: Guardrail = { name: 'slow_check', check: async () => (await stuck.once(), { tripwire: false }) };
    const model = new ScriptedModel({ responses: ['the answer'] });
    const agent = new ReActAgent({ name: 'a', model, middleware: [guardrails({ input: [slowCheck] })] });
    const runner = new Runner({ agent, appName: 'app', sessionStore: new InMemorySessionStore() });
    await abortWhen(runner.run({ ...user, input: 'go' }), stuck.started);
    expect(model.calls).toBe(0);

    const resumed = await runner.resume(user).result();
    expect(resumed.status).toBe('completed');
    expect(resumed.output).toBe('the answer');
  });

  it('an output guardrail that never settles: aborted promptly; the session resumes', async () => {
    const stuck = hang();
    const slowCheck: Guardrail = { name: 'slow_check', check: async () => (await stuck.once(), { tripwire: false }) };
    const model = new ScriptedModel({ respond: () => 'the answer' });
    const agent = new ReActAgent({ name: 'a', model, middleware: [guardrails({ output: [slowCheck] })] });
    const runner = new Runner({ agent, appName: 'app', sessionStore: new InMemorySessionStore() });
    await abortWhen(runner.run({ ...user, input: 'go' }), stuck.started);

    const resumed = await runner.resume(user).result();
    expect(resumed.status).toBe('completed');
    expect(resumed.output).toBe('the answer');
  });

  it('a compaction summarizer that never settles: aborted promptly; the session resumes and compacts', async () => {
    const stuck = hang();
    const step = longStep(30, { onCall: (model) => (model === 'sum' ? stuck.once() : undefined) });
    const runner = compactingRunner(step, {}, new InMemorySessionStore());
    await abortWhen(runner.run({ ...user, input: 'go' }), stuck.started);

    const resumed = await runner.resume(user).result();
    expect(resumed.status).toBe('completed');
    expect(resumed.output).toBe('facts kept: 30');
  });
});
