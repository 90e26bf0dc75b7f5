import type { UIMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { approvalResponsesOf, resumeFromApprovals, toUIMessageStream } from '../src/index.js';
import { collect, readMessage, tripRunner } from './support/trip-run.js';

const user = { userId: 'ana', sessionId: 'trip-proto' };
const userMessage: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Book' }] };
const answering = (id: string): UIMessage => ({
  id: 'a1',
  role: 'assistant',
  parts: [
    { type: 'dynamic-tool', toolName: 'book', toolCallId: 'c', state: 'approval-responded', input: {}, approval: { id, approved: true } },
  ],
});

describe('approval ids named like Object.prototype members', () => {
  it('keeps "__proto__" and "constructor" as approval ids', () => {
    const answers = approvalResponsesOf([userMessage, answering('__proto__')]);
    expect(Object.keys(answers)).toEqual(['__proto__']);
    expect(Object.keys(approvalResponsesOf([userMessage, answering('constructor')]))).toEqual(['constructor']);
  });

  it('resumeFromApprovals with a "__proto__" approval id answers it (an unknown_approval UIStreamError here), never "no approval answered"', async () => {
    const { runner, store } = tripRunner();
    const run = runner.run({ ...user, input: 'Book', stream: true });
    await readMessage((await collect(toUIMessageStream(run, { runner, ...user }))).map((c) => c.chunk));
    const key = { appName: 'trips', userId: user.userId, id: user.sessionId };
    const before = (await store.get(key))?.events.length;
    for (const id of ['__proto__', 'constructor'])
      await expect(resumeFromApprovals(runner, { ...user, messages: [userMessage, answering(id)] })).rejects.toMatchObject({
        name: 'UIStreamError',
        kind: 'unknown_approval',
      });
    // The open approval is still there to answer.
    expect((await store.get(key))?.events.length).toBe(before);
    expect((await run.result()).status).toBe('interrupted');
  });
});
