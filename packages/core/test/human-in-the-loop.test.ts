import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ReActAgent, Runner, SequentialAgent, tool, toolResultsOf } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { collect } from './support.js';

describe('human in the loop', () => {
  it('stops on interrupt() and continues inside the tool call with the answer, without calling the model again', async () => {
    const runs: unknown[] = [];
    const ask = tool({
      name: 'ask_user',
      description: 'Ask the user',
      parameters: z.object({ question: z.string() }),
      execute: ({ question }, ctx) => {
        const answer = ctx.interrupt<string>({ question });
        runs.push(answer);
        return `user said: ${answer}`;
      },
    });
    const model = new ScriptedModel({
      responses: [callTools({ name: 'ask_user', args: { question: 'Which city?' }, id: 'q1' }), 'Booked Paris.'],
    });
    const runner = new Runner({ agent: new ReActAgent({ name: 'agent', model, tools: [ask] }), appName: 'hitl' });
    const first = await collect(runner.run({ userId: 'u', input: 'book a trip', sessionId: 's' }));
    expect(first.result.status).toBe('interrupted');
    expect(first.result.interrupts).toEqual([
      expect.objectContaining({ id: 'q1:1', reason: 'input', payload: { question: 'Which city?' }, toolCallId: 'q1' }),
    ]);
    expect(model.calls).toBe(1);

    // Resuming without answering keeps it interrupted and calls nothing.
    const idle = await collect(runner.resume({ userId: 'u', sessionId: 's' }));
    expect(idle.result.status).toBe('interrupted');
    expect(model.calls).toBe(1);

    const second = await collect(runner.resume({ userId: 'u', sessionId: 's', values: { 'q1:1': 'Paris' } }));
    expect(second.result.status).toBe('completed');
    expect(second.result.output).toBe('Booked Paris.');
    expect(runs).toEqual(['Paris']);
    expect(model.calls).toBe(2);
    expect(toolResultsOf(model.requests[1]?.messages.at(-1))[0]?.output).toBe('user said: Paris');
  });

  it('asks approval for needsApproval tools; approval runs the tool, rejection tells the model', async () => {
    const sent: string[] = [];
    const send = tool({
      name: 'send_email',
      description: 'Send an email',
      parameters: z.object({ to: z.string() }),
      needsApproval: ({ to }) => !to.endsWith('@example.com'),
      execute: ({ to }) => (sent.push(to), 'sent'),
    });
    const script = () =>
      new ScriptedModel({
        responses: [
          callTools(
            { name: 'send_email', args: { to: 'boss@corp.com' }, id: 'e1' },
            { name: 'send_email', args: { to: 'me@example.com' }, id: 'e2' },
          ),
          'done',
        ],
      });
    for (const approved of [true, false]) {
      sent.length = 0;
      const model = script();
      const runner = new Runner({ agent: new ReActAgent({ name: 'mailer', model, tools: [send] }), appName: 'hitl' });
      const first = await collect(runner.run({ userId: 'u', input: 'mail', sessionId: 'm' }));
      expect(first.result.status).toBe('interrupted');
      expect(first.result.interrupts.map((i) => i.id)).toEqual(['e1:approval']);
      expect(first.result.interrupts[0]?.payload).toEqual({ tool: 'send_email', args: { to: 'boss@corp.com' } });
      expect(sent).toEqual(['me@example.com']); // the call that needed no approval ran and its result is stored

      const second = await collect(
        runner.resume({
          userId: 'u',
          sessionId: 'm',
          values: { 'e1:approval': approved ? true : { approved: false, message: 'not now' } },
        }),
      );
      expect(second.result.status).toBe('completed');
      const results = model.requests[1]?.messages.flatMap((m) => toolResultsOf(m)) ?? [];
      const boss = results.find((r) => r.toolCallId === 'e1');
      if (approved) {
        expect(sent).toEqual(['me@example.com', 'boss@corp.com']);
        expect(boss?.output).toBe('sent');
      } else {
        expect(sent).toEqual(['me@example.com']);
        expect(boss).toMatchObject({ isError: true });
        expect(String(boss?.output)).toMatch(/rejected.*not now/);
      }
      expect(results.filter((r) => r.toolCallId === 'e2').length).toBe(1);
    }
  });

  it('rejects an unknown interrupt id with a typed error and changes nothing', async () => {
    const ask = tool({ name: 'ask', description: '', parameters: z.object({}), execute: (_a, ctx) => ctx.interrupt('?') });
    const model = new ScriptedModel({ responses: [callTools({ name: 'ask', id: 'a1' })] });
    const runner = new Runner({
      agent: new SequentialAgent({ name: 'root', subAgents: [new ReActAgent({ name: 'x', model, tools: [ask] })] }),
      appName: 'h',
    });
    await collect(runner.run({ userId: 'u', input: 'q', sessionId: 's' }));
    const before = await runner.sessionStore.get({ appName: 'h', userId: 'u', id: 's' });
    await expect(runner.resume({ userId: 'u', sessionId: 's', values: { 'nope:1': 1 } }).result()).rejects.toMatchObject({
      name: 'ResumeError',
      kind: 'unknown_interrupt',
    });
    await expect(runner.resume({ userId: 'u', sessionId: 's', values: { 'nope:1': 1 } }).result()).rejects.toThrow(/a1:1/);
    expect((await runner.sessionStore.get({ appName: 'h', userId: 'u', id: 's' }))?.version).toBe(before?.version);
  });
});
