import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ReActAgent, ResumeError, Runner, SessionNotFoundError, tool, toolResultsOf } from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';

/** A session stopped on an approval (`b1:approval`, book) and a question (`q1:1`). */
async function waiting(replies: readonly string[] = []) {
  const booked: string[] = [];
  const book = tool({
    name: 'book',
    description: 'Books a flight',
    parameters: z.object({ flight: z.string() }),
    needsApproval: true,
    execute: ({ flight }) => (booked.push(flight), `booked ${flight}`),
  });
  const ask = tool({
    name: 'ask',
    description: 'Asks',
    parameters: z.object({}),
    execute: (_a, ctx) => `said ${ctx.interrupt<string>('which seat?')}`,
  });
  const model = new ScriptedModel({
    responses: [callTools({ name: 'book', args: { flight: 'TP101' }, id: 'b1' }, { name: 'ask', id: 'q1' }), ...replies],
  });
  const runner = new Runner({ agent: new ReActAgent({ name: 'agent', model, tools: [book, ask] }), appName: 'trips' });
  const first = await runner.run({ userId: 'u', sessionId: 's', input: 'book TP101' }).result();
  expect(first.status).toBe('interrupted');
  const session = () => runner.sessionStore.get({ appName: 'trips', userId: 'u', id: 's' });
  return { runner, model, booked, session };
}

describe('runner.run on a session waiting for an answer', () => {
  it('is refused with a ResumeError (open_interrupts) naming each open interrupt and how to answer or abandon: nothing stored', async () => {
    const h = await waiting();
    const before = (await h.session())?.version;
    const run = h.runner.run({ userId: 'u', sessionId: 's', input: 'actually, never mind' });
    const error = await run.result().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResumeError);
    expect(error).toMatchObject({ kind: 'open_interrupts', sessionId: 's' });
    expect((error as ResumeError).interrupts.map((i) => i.id).sort()).toEqual(['b1:approval', 'q1:1']);
    expect((error as Error).message).toMatch(/"b1:approval" \(approval of book\)/);
    expect((error as Error).message).toMatch(/runner\.resume\(\{ userId, sessionId, approvals/);
    expect((error as Error).message).toMatch(/abandon: true/);
    expect((await h.session())?.version).toBe(before);
    expect(h.booked).toEqual([]);
    // Still answerable: the approval was not lost.
    expect((await h.runner.pending({ userId: 'u', sessionId: 's' })).map((i) => i.id).sort()).toEqual(['b1:approval', 'q1:1']);
  });

  it('with abandon: true closes them (each open tool call answered "not approved: superseded"), then runs the new message', async () => {
    const h = await waiting(['Understood, nothing booked.']);
    const result = await h.runner.run({ userId: 'u', sessionId: 's', input: 'never mind', abandon: true }).result();
    expect(result.status).toBe('completed');
    expect(result.output).toBe('Understood, nothing booked.');
    expect(h.booked).toEqual([]);
    const events = (await h.session())?.events ?? [];
    const closed = events.find((e) => e.meta?.kind === 'interrupts-abandoned');
    expect(closed?.meta?.interruptIds).toEqual(['b1:approval', 'q1:1']);
    const results = events.flatMap((e) => (e.message ? toolResultsOf(e.message) : []));
    expect(results.map((r) => [r.toolCallId, r.isError, r.output])).toEqual([
      ['b1', true, expect.stringMatching(/^Not approved: superseded by a new message/)],
      ['q1', true, expect.stringMatching(/^Not approved: superseded by a new message/)],
    ]);
    // The model of the new run sees a well-formed history: each call followed by its result.
    const sent = h.model.requests[1]?.messages ?? [];
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'user']);
    expect(await h.runner.pending({ userId: 'u', sessionId: 's' })).toEqual([]);
  });
});

describe('runner.pending', () => {
  it('lists what a session waits on, nothing once answered, and refuses a session that does not exist', async () => {
    const h = await waiting(['done']);
    const pending = await h.runner.pending({ userId: 'u', sessionId: 's' });
    expect(pending.map((i) => [i.id, i.reason, i.toolName])).toEqual([
      ['b1:approval', 'approval', 'book'],
      ['q1:1', 'input', 'ask'],
    ]);
    expect(pending[1]?.payload).toBe('which seat?');
    await h.runner.resume({ userId: 'u', sessionId: 's', approvals: { 'b1:approval': true }, values: { 'q1:1': 'window' } }).result();
    expect(await h.runner.pending({ userId: 'u', sessionId: 's' })).toEqual([]);
    await expect(h.runner.pending({ userId: 'u', sessionId: 'nope' })).rejects.toBeInstanceOf(SessionNotFoundError);
  });
});
