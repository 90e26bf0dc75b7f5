import { ReActAgent, Runner } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';
import { describe, expect, it } from 'vitest';
import type { DynamicToolUIPart, UIMessage } from 'ai';
import {
  assistantMessageId,
  resumeFromApprovals,
  resumeUIMessageStream,
  toUIMessageStream,
  type ReplanUIChunk,
  type StepData,
} from '../src/index.js';
import { collect, readMessage, tripRunner } from './support/trip-run.js';

const user = { userId: 'ana', sessionId: 'trip-1' };
const userMessage: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Book me a flight to Lisbon' }] };

const chunksOf = (items: readonly { chunk: ReplanUIChunk }[]) => items.map((i) => i.chunk);
const toolPart = (message: UIMessage, name: string) =>
  message.parts.find((p): p is DynamicToolUIPart => p.type === 'dynamic-tool' && p.toolName === name);
const dataParts = (message: UIMessage, type: string) => message.parts.filter((p) => p.type === type) as { id?: string; data: any }[];

/** The client's side of an approval: the tool part answered, as `addToolApprovalResponse` leaves it. */
function approve(message: UIMessage, name: string, approved: boolean): UIMessage {
  return {
    ...message,
    parts: message.parts.map((p) =>
      p.type === 'dynamic-tool' && p.toolName === name && p.state === 'approval-requested'
        ? { ...p, state: 'approval-responded', approval: { id: p.approval.id, approved } }
        : p,
    ) as UIMessage['parts'],
  };
}

describe('toUIMessageStream', () => {
  it("is parsed by ai's readUIMessageStream: plan, steps, tools, an approval, then the answer after resuming", async () => {
    const { runner } = tripRunner();
    const run = runner.run({ ...user, input: 'Book me a flight to Lisbon', stream: true });
    const first = await collect(toUIMessageStream(run, { runner, ...user }));
    const result = await run.result();
    expect(result.status).toBe('interrupted');

    const message = await readMessage(chunksOf(first));
    expect(message.id).toBe(assistantMessageId(user.sessionId, result.invocationId));
    // One plan part, replaced by the revision.
    const plans = dataParts(message, 'data-plan');
    expect(plans).toHaveLength(1);
    expect(plans[0]?.data).toEqual({ plan: { steps: ['book the flight'] }, revision: 1 });
    // One part per step, updated in place.
    expect(dataParts(message, 'data-step').map((p) => [p.id, p.data.status, p.data.step])).toEqual([
      ['step-1', 'done', 'look up flights'],
      ['step-2', 'running', 'book the flight'],
    ]);
    expect(dataParts(message, 'data-step')[0]?.data.result).toBe('TP123 at 9:05');
    expect(toolPart(message, 'search')).toMatchObject({
      state: 'output-available',
      input: { to: 'Lisbon' },
      output: { flights: ['TP123'] },
    });
    const book = toolPart(message, 'book');
    expect(book).toMatchObject({ state: 'approval-requested', input: { flight: 'TP123' }, approval: { id: result.interrupts[0]?.id } });
    expect(chunksOf(first).at(-1)).toEqual({ type: 'finish' });

    // The client approves; its messages go back and resume the run.
    const answered = approve(message, 'book', true);
    const resumed = await resumeFromApprovals(runner, { ...user, messages: [userMessage, answered] });
    expect(resumed).toBeDefined();
    const second = await collect(toUIMessageStream(resumed!, { runner, ...user }));
    const final = await readMessage(chunksOf(second), answered);
    expect((await resumed!.result()).status).toBe('completed');
    expect(final.id).toBe(message.id);
    expect(toolPart(final, 'book')).toMatchObject({ state: 'output-available', output: 'booked TP123' });
    expect(dataParts(final, 'data-step').map((p) => p.data.status)).toEqual(['done', 'done']);
    // The answer is the message's last text part.
    const texts = final.parts.filter((p) => p.type === 'text');
    expect(texts.at(-1)).toMatchObject({ text: 'Your flight TP123 to Lisbon is booked.', state: 'done' });
    expect(second.every((c) => typeof c.id === 'string')).toBe(true);
  });

  it('shows a refused approval as denied, and the run goes on', async () => {
    const { runner } = tripRunner();
    const run = runner.run({ ...user, input: 'Book', stream: true });
    const message = await readMessage(chunksOf(await collect(toUIMessageStream(run, { runner, ...user }))));
    const answered = approve(message, 'book', false);
    const resumed = await resumeFromApprovals(runner, { ...user, messages: [userMessage, answered] });
    const final = await readMessage(chunksOf(await collect(toUIMessageStream(resumed!, { runner, ...user }))), answered);
    expect(toolPart(final, 'book')?.state).toBe('output-denied');
  });

  it('refuses an approval for a call the session is not waiting for: typed error, nothing run', async () => {
    const { runner, store } = tripRunner();
    const run = runner.run({ ...user, input: 'Book', stream: true });
    const message = await readMessage(chunksOf(await collect(toUIMessageStream(run, { runner, ...user }))));
    const key = { appName: 'trips', userId: user.userId, id: user.sessionId };
    const before = (await store.get(key))?.events.length;
    const forged: UIMessage = {
      ...message,
      parts: [
        ...message.parts,
        {
          type: 'dynamic-tool',
          toolName: 'book',
          toolCallId: 'nope',
          state: 'approval-responded',
          input: {},
          approval: { id: 'nope:approval', approved: true },
        },
      ],
    };
    await expect(resumeFromApprovals(runner, { ...user, messages: [userMessage, forged] })).rejects.toMatchObject({
      name: 'UIStreamError',
      kind: 'unknown_approval',
    });
    expect((await store.get(key))?.events.length).toBe(before);
    // An answer given twice is unknown the second time.
    const answered = approve(message, 'book', true);
    await (await resumeFromApprovals(runner, { ...user, messages: [userMessage, answered] }))!.result();
    await expect(resumeFromApprovals(runner, { ...user, messages: [userMessage, answered] })).rejects.toMatchObject({
      name: 'UIStreamError',
      kind: 'unknown_approval',
    });
  });

  it('has no approval to resume for a plain user message', async () => {
    const { runner } = tripRunner();
    expect(await resumeFromApprovals(runner, { ...user, messages: [userMessage] })).toBeUndefined();
  });
});

describe('toUIMessageStream in graph mode', () => {
  it('sends every graph step as pending with its dependencies, then done, by graph id', async () => {
    const models = scriptPlanExecute({
      plan: {
        steps: [
          { id: 'flights', task: 'find flights', dependsOn: [] },
          { id: 'hotels', task: 'find hotels', dependsOn: [] },
          { id: 'summary', task: 'sum up $flights and $hotels', dependsOn: ['flights', 'hotels'] },
        ],
      },
      steps: { flights: 'TP1351', hotels: 'Hotel Lisboa', summary: 'TP1351 and Hotel Lisboa' },
      answer: 'Done.',
    });
    const agent = createPlanExecuteAgent({ model: models.model, mode: 'graph' });
    const runner = new Runner({ agent, appName: 'trips' });
    const run = runner.run({ ...user, input: 'Plan a trip', stream: true });
    const chunks = chunksOf(await collect(toUIMessageStream(run, { runner, ...user })));
    const summary = chunks.filter((c) => c.type === 'data-step' && c.id === 'step-summary').map((c) => (c as { data: StepData }).data);
    expect(summary.map((s) => s.status)).toEqual(['pending', 'running', 'done']);
    expect(summary[0]).toMatchObject({ id: 'summary', dependsOn: ['flights', 'hotels'], step: 'sum up $flights and $hotels' });
    const message = await readMessage(chunks);
    expect(dataParts(message, 'data-step').map((p) => [p.id, p.data.status, p.data.result])).toEqual([
      ['step-flights', 'done', 'TP1351'],
      ['step-hotels', 'done', 'Hotel Lisboa'],
      ['step-summary', 'done', 'TP1351 and Hotel Lisboa'],
    ]);
    expect(message.parts.filter((p) => p.type === 'text').at(-1)).toMatchObject({ text: 'Done.' });
  });
});

describe('toUIMessageStream with any agent', () => {
  it('streams reasoning and text deltas of a ReActAgent; the replay builds the same message', async () => {
    const model = new ScriptedModel({
      responses: [
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', reasoning: 'Lisbon is warm in May.' },
            { type: 'text', text: 'Go to Lisbon in May.' },
          ],
        },
      ],
    });
    const runner = new Runner({ agent: new ReActAgent({ name: 'advisor', model }), appName: 'trips' });
    const run = runner.run({ ...user, input: 'When?', stream: true });
    const live = chunksOf(await collect(toUIMessageStream(run, { runner, ...user })));
    expect(live.map((c) => c.type)).toEqual(
      expect.arrayContaining(['reasoning-start', 'reasoning-delta', 'reasoning-end', 'text-start', 'text-delta', 'text-end', 'finish']),
    );
    const message = await readMessage(live);
    expect(message.parts.map((p) => [p.type, 'text' in p ? p.text : undefined])).toEqual([
      ['reasoning', 'Lisbon is warm in May.'],
      ['text', 'Go to Lisbon in May.'],
    ]);
    const replay = chunksOf(await collect(resumeUIMessageStream({ runner, ...user })));
    expect(await readMessage(replay)).toEqual(message);
  });
});
