import { describe, expect, it } from 'vitest';
import { InMemorySessionStore, tool, toolResultsOf } from '@replan/core';
import { z } from 'zod';
import { codeRunner, countingTools } from './support.js';

const PROGRAM =
  'const a = await tools.add({ a: 1, b: 2 });\nlet sent;\ntry { sent = await tools.send({ to: "boss", text: "sum " + a }); } catch (e) { sent = e.message; }\nconst b = await tools.add({ a, b: 10 });\nreturn { a, sent, b };';

function sendTool(sent: string[]) {
  return tool({
    name: 'send',
    description: 'Sends a message.',
    parameters: z.object({ to: z.string(), text: z.string() }),
    needsApproval: true,
    execute: ({ to, text }) => {
      sent.push(`${to}:${text}`);
      return 'sent';
    },
  });
}

describe('approvals and questions inside a program', () => {
  it('needsApproval stops the run with an interrupt whose id carries the code call and index; approving replays to it and goes on', async () => {
    const store = new InMemorySessionStore();
    const runs: string[] = [];
    const sent: string[] = [];
    const first = codeRunner(PROGRAM, [...countingTools(runs), sendTool(sent)], { store });
    const stopped = await first.runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
    expect(stopped.status).toBe('interrupted');
    expect(stopped.interrupts).toEqual([
      expect.objectContaining({
        id: 'code1#1:approval',
        reason: 'approval',
        payload: { tool: 'send', args: { to: 'boss', text: 'sum 3' } },
      }),
    ]);
    expect(runs).toEqual(['add:1+2']);
    // Resuming without an answer replays to the question and stops there again: nothing run, nothing stored twice.
    const idle = await first.runner.resume({ userId: 'u', sessionId: 's' }).result();
    expect(idle.status).toBe('interrupted');
    expect(idle.interrupts.map((i) => i.id)).toEqual(['code1#1:approval']);
    expect(runs).toEqual(['add:1+2']);
    const log = (await store.get({ appName: 'code', userId: 'u', id: 's' }))?.events ?? [];
    expect(log.filter((e) => e.actions?.interrupt)).toHaveLength(1);
    // Answered by another runner on the same store (another process would do the same).
    const other = codeRunner(PROGRAM, [...countingTools(runs), sendTool(sent)], { store });
    const done = await other.runner.resume({ userId: 'u', sessionId: 's', values: { 'code1#1:approval': true } }).result();
    expect(done.status).toBe('completed');
    expect(runs).toEqual(['add:1+2', 'add:3+10']); // the first add is not repeated
    expect(sent).toEqual(['boss:sum 3']);
    expect(toolResultsOf(other.model.requests[0]?.messages.at(-1) as never)[0]?.output).toEqual({ result: { a: 3, sent: 'sent', b: 13 } });
  });

  it('a denial is the usual rejection, thrown inside the program as a ToolError', async () => {
    const store = new InMemorySessionStore();
    const runs: string[] = [];
    const sent: string[] = [];
    const first = codeRunner(PROGRAM, [...countingTools(runs), sendTool(sent)], { store });
    await first.runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
    const done = await first.runner
      .resume({ userId: 'u', sessionId: 's', values: { 'code1#1:approval': { approved: false, message: 'not now' } } })
      .result();
    expect(done.status).toBe('completed');
    expect(sent).toEqual([]);
    const output = toolResultsOf(first.model.requests[1]?.messages.at(-1) as never)[0]?.output as { result: { sent: string } };
    expect(output.result.sent).toBe('The user rejected this call of "send": not now. Do not retry it unchanged.');
  });

  it('ctx.interrupt() in an inner tool stops the run with <codeCallId>#<n>:<k>; the answer reaches the tool on resume', async () => {
    const asked: unknown[] = [];
    const ask = tool({
      name: 'ask',
      description: 'Asks the user.',
      parameters: z.object({ question: z.string() }),
      execute: ({ question }, ctx) => {
        const answer = ctx.interrupt<string>({ question });
        asked.push(answer);
        return answer;
      },
    });
    const runs: string[] = [];
    const { runner, model } = codeRunner(
      'const x = await tools.add({ a: 2, b: 2 });\nconst city = await tools.ask({ question: "Which city?" });\nreturn city + x;',
      [...countingTools(runs), ask],
    );
    const stopped = await runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
    expect(stopped.interrupts).toEqual([
      expect.objectContaining({ id: 'code1#1:1', reason: 'input', payload: { question: 'Which city?' } }),
    ]);
    const done = await runner.resume({ userId: 'u', sessionId: 's', values: { 'code1#1:1': 'Paris' } }).result();
    expect(done.status).toBe('completed');
    expect(asked).toEqual(['Paris']);
    expect(runs).toEqual(['add:2+2']);
    expect(toolResultsOf(model.requests[1]?.messages.at(-1) as never)[0]?.output).toEqual({ result: 'Paris4' });
  });

  it('a new message instead of an answer closes the code call as superseded; the model sees no inner call', async () => {
    const sent: string[] = [];
    const { runner, model } = codeRunner(PROGRAM, [...countingTools([]), sendTool(sent)]);
    await runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
    const next = await runner.run({ userId: 'u', sessionId: 's', input: 'never mind', abandon: true }).result();
    expect(next.status).toBe('completed');
    const request = model.requests.at(-1)?.messages ?? [];
    expect(JSON.stringify(request)).not.toContain('code1#');
    expect(toolResultsOf(request.find((m) => m.role === 'tool') as never)[0]).toMatchObject({ toolCallId: 'code1', isError: true });
  });
});
