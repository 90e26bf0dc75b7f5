import { describe, expect, it } from 'vitest';
import {
  type Agent,
  type AgentEvent,
  type InvocationContext,
  LoopAgent,
  ParallelAgent,
  ReActAgent,
  Runner,
  SequentialAgent,
  assistantMessage,
  messageText,
} from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';
import { collect } from './support.js';

/** An agent that says its name and counter, and asks to leave the loop when told to. */
class CountingAgent implements Agent {
  readonly description = '';
  runs = 0;
  constructor(
    readonly name: string,
    private readonly exitAt?: number,
  ) {}
  async *run(ctx: InvocationContext): AsyncGenerator<AgentEvent> {
    this.runs++;
    const exit = this.exitAt !== undefined && this.runs >= this.exitAt;
    yield ctx.event({ message: assistantMessage(`${this.name} #${this.runs}`), ...(exit ? { actions: { exitLoop: true } } : {}) });
  }
}

describe('workflow agents', () => {
  it('SequentialAgent runs children in order and stores a cursor before each', async () => {
    const a = new CountingAgent('a');
    const b = new CountingAgent('b');
    const runner = new Runner({ agent: new SequentialAgent({ name: 'seq', subAgents: [a, b] }), appName: 'w' });
    const { events, result } = await collect(runner.run({ userId: 'u', input: 'go' }));
    expect(result.status).toBe('completed');
    const trail = events
      .map((e) => (e.actions?.agentState ? `cursor:${JSON.stringify(e.actions.agentState)}` : messageText(e.message)))
      .filter(Boolean);
    expect(trail).toEqual([
      'go',
      'cursor:{"index":0,"agent":"a"}',
      'a #1',
      'cursor:{"index":1,"agent":"b"}',
      'b #1',
      'cursor:{"index":2,"done":true}',
    ]);
    expect(events.find((e) => messageText(e.message) === 'b #1')?.path).toBe('seq/b');
  });

  it('SequentialAgent resumes at the child that was running, not from the start', async () => {
    const first = new ScriptedModel({ responses: ['first answer'] });
    const second = new ScriptedModel({ responses: [new Error('network down'), 'second answer'] });
    const agent = new SequentialAgent({
      name: 'seq',
      subAgents: [new ReActAgent({ name: 'one', model: first }), new ReActAgent({ name: 'two', model: second })],
    });
    const runner = new Runner({ agent, appName: 'w' });
    const failed = await runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
    expect(failed.status).toBe('failed');
    const resumed = await runner.resume({ userId: 'u', sessionId: 's' }).result();
    expect(resumed).toMatchObject({ status: 'completed', output: 'second answer' });
    expect(first.calls).toBe(1);
    expect(second.calls).toBe(2);
  });

  it('LoopAgent stops when a child sets exitLoop', async () => {
    const worker = new CountingAgent('worker');
    const judge = new CountingAgent('judge', 3);
    const runner = new Runner({ agent: new LoopAgent({ name: 'loop', subAgents: [worker, judge], maxIterations: 10 }), appName: 'w' });
    const { events, result } = await collect(runner.run({ userId: 'u', input: 'go' }));
    expect(result.status).toBe('completed');
    expect([worker.runs, judge.runs]).toEqual([3, 3]);
    const cursors = events.filter((e) => e.actions?.agentState).map((e) => e.actions?.agentState);
    expect(cursors.at(-1)).toMatchObject({ iteration: 2, done: true });
  });

  it('LoopAgent running out of iterations completes normally, or fails max_iterations with requireExit', async () => {
    const plain = new Runner({
      agent: new LoopAgent({ name: 'loop', subAgents: [new CountingAgent('w')], maxIterations: 2 }),
      appName: 'w',
    });
    expect((await plain.run({ userId: 'u', input: 'go' }).result()).status).toBe('completed');
    const strict = new Runner({
      agent: new LoopAgent({ name: 'loop', subAgents: [new CountingAgent('w')], maxIterations: 2, requireExit: true }),
      appName: 'w',
    });
    const r = await strict.run({ userId: 'u', input: 'go' }).result();
    expect(r.status).toBe('max_iterations');
    expect(r.error?.name).toBe('MaxIterationsError');
  });

  it('ParallelAgent runs children at once on their own branches, hidden from each other', async () => {
    let running = 0;
    let maxRunning = 0;
    const model = (name: string) =>
      new ScriptedModel({
        latencyMs: 40,
        respond: (req) => {
          running--;
          return `${name} saw ${req.messages.length} message(s)`;
        },
      });
    const wrap = (m: ScriptedModel) => {
      const generate = m.generate.bind(m);
      m.generate = async (req, opts) => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        return generate(req, opts);
      };
      return m;
    };
    const children = ['left', 'mid', 'right'].map((n) => new ReActAgent({ name: n, model: wrap(model(n)) }));
    const runner = new Runner({ agent: new ParallelAgent({ name: 'fan', subAgents: children }), appName: 'w' });
    const { events, result } = await collect(runner.run({ userId: 'u', input: 'go' }));
    expect(result.status).toBe('completed');
    expect(maxRunning).toBe(3);
    const answers = events.filter((e) => e.actions?.final);
    expect(answers.map((e) => e.branch).sort()).toEqual(['left', 'mid', 'right']);
    // each child saw only the user's message, not its siblings' answers
    for (const e of answers) expect(messageText(e.message)).toMatch(/saw 1 message/);
  });

  it('ParallelAgent stops siblings when one fails', async () => {
    const slow = new ScriptedModel({ responses: ['slow'], latencyMs: 5_000 });
    const bad = new ScriptedModel({ responses: [new Error('boom')] });
    const runner = new Runner({
      agent: new ParallelAgent({
        name: 'fan',
        subAgents: [new ReActAgent({ name: 'slow', model: slow }), new ReActAgent({ name: 'bad', model: bad })],
      }),
      appName: 'w',
    });
    const started = Date.now();
    const r = await runner.run({ userId: 'u', input: 'go' }).result();
    expect(r.status).toBe('failed');
    expect(r.error?.message).toMatch(/boom/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
