import { type Guardrail, InMemorySessionStore, Runner } from '@replan/core';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';
import { describe, expect, it } from 'vitest';
import { resumeUIMessageStream, toUIMessageStream } from '../src/index.js';
import { collect, gate, readMessage } from './support/trip-run.js';

const SECRET = 'The vault code is XYZZY.';
const user = { userId: 'ana', sessionId: 'vault-1' };

function vaultRunner(answer: string, wait?: Promise<void>) {
  const models = scriptPlanExecute({
    plan: { steps: ['look in the notes'] },
    steps: { 'look in the notes': 'the notes mention a code' },
    answer,
  });
  const noCodes: Guardrail = {
    name: 'no_codes',
    check: async (text) => {
      await wait;
      return { tripwire: text.includes('XYZZY'), reason: 'leaks a code' };
    },
  };
  const agent = createPlanExecuteAgent({ model: models.model, guardrails: { output: [noCodes] } });
  const store = new InMemorySessionStore();
  return { runner: new Runner({ agent, appName: 'vault', sessionStore: store }), store };
}

const BLOCK = 'Blocked by the output guardrail "no_codes": leaks a code';

describe('UI message streams of a run whose answer an output guardrail blocked', () => {
  it('the live stream (stream: true) never sends the answer and shows the block', async () => {
    const { runner } = vaultRunner(SECRET);
    const live = await collect(toUIMessageStream(runner.run({ ...user, input: 'What is the code?', stream: true }), { runner, ...user }));
    expect(JSON.stringify(live)).not.toContain('XYZZY');
    expect(live.map((c) => c.chunk)).toContainEqual({
      type: 'data-guardrail',
      id: 'guardrail',
      data: { name: 'no_codes', stage: 'output', reason: 'leaks a code' },
    });
    const message = await readMessage(live.map((c) => c.chunk));
    expect(message.parts).toContainEqual(expect.objectContaining({ type: 'text', text: BLOCK }));
    // A step's text still streams as it is written.
    expect(JSON.stringify(message.parts)).toContain('the notes mention a code');
  });

  it('a reloaded page (resumeUIMessageStream) replays the same message: the block, not the answer', async () => {
    const { runner } = vaultRunner(SECRET);
    const live = await collect(toUIMessageStream(runner.run({ ...user, input: 'What is the code?', stream: true }), { runner, ...user }));
    const replay = await collect(resumeUIMessageStream({ runner, ...user }));
    expect(JSON.stringify(replay)).not.toContain('XYZZY');
    // The same texts and data (a streamed step's text part opens before its step part: the order of parts may differ).
    const partsOf = async (chunks: typeof live) =>
      (await readMessage(chunks.map((c) => c.chunk))).parts.map((p) => JSON.stringify(p)).sort();
    expect(await partsOf(replay)).toEqual(await partsOf(live));
    expect(await partsOf(replay)).toContainEqual(expect.stringContaining('Blocked by the output guardrail'));
  });

  it('a page reloaded while the guardrail decides waits for its verdict: a blocked answer is never sent', async () => {
    const verdict = gate();
    const { runner, store } = vaultRunner(SECRET, verdict.opened);
    const run = runner.run({ ...user, input: 'What is the code?' });
    // Wait until the answer is stored (the guardrail is then deciding).
    for (;;) {
      const events = (await store.get({ appName: 'vault', ...user, id: user.sessionId }))?.events ?? [];
      if (events.some((e) => e.actions?.final)) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const replaying = collect(resumeUIMessageStream({ runner, ...user, pollMs: 20 }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    verdict.open();
    await run.result();
    const replay = await replaying;
    expect(JSON.stringify(replay)).not.toContain('XYZZY');
    const message = await readMessage(replay.map((c) => c.chunk));
    expect(message.parts).toContainEqual(expect.objectContaining({ type: 'text', text: BLOCK }));
  });

  it('an answer the guardrails pass is shown, live and replayed', async () => {
    const { runner } = vaultRunner('The vault is in the cellar.');
    const live = await collect(toUIMessageStream(runner.run({ ...user, input: 'Where?', stream: true }), { runner, ...user }));
    const replay = await collect(resumeUIMessageStream({ runner, ...user }));
    for (const chunks of [live, replay]) {
      const message = await readMessage(chunks.map((c) => c.chunk));
      expect(message.parts).toContainEqual(expect.objectContaining({ type: 'text', text: 'The vault is in the cellar.' }));
      expect(JSON.stringify(chunks)).not.toContain('Blocked');
    }
  });
});
