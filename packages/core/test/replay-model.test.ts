import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  FileSessionStore,
  ReActAgent,
  ReplayError,
  Runner,
  tool,
  type AgentEvent,
  type ModelRequest,
  userMessage,
  messageText,
  type Session,
  type Tool,
} from '@replan/core';
import type { ModelStreamPart } from '@replan/core/agent-kit';
import { ReplayModel, ScriptedModel, callTools, recordedToolCalls, replayTools, requestParts } from '@replan/core/testing';
import type { StoredRequestRecord } from '../src/invocation/response-record.js';
import { collect } from './support.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'replan-replay-core-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Tools that count their real runs: `charge` needs approval, `ask` asks a question, `flaky` throws. */
function world() {
  const runs: string[] = [];
  const charge = tool({
    name: 'charge',
    description: 'charges a card',
    parameters: z.object({ amount: z.number() }),
    needsApproval: true,
    execute: ({ amount }) => {
      runs.push(`charge ${amount}`);
      return `charged ${amount}`;
    },
  });
  const ask = tool({
    name: 'ask',
    description: 'asks the user',
    parameters: z.object({ question: z.string() }),
    execute: ({ question }, ctx) => {
      runs.push(`ask ${question}`);
      return `user said ${ctx.interrupt<string>({ question })}`;
    },
  });
  const flaky = tool({
    name: 'flaky',
    description: 'always fails',
    parameters: z.object({}),
    execute: () => {
      runs.push('flaky');
      throw new Error('service down');
    },
  });
  return { runs, tools: [charge, ask, flaky] as Tool[] };
}

const script = () => [
  callTools({ name: 'flaky' }),
  callTools({ name: 'charge', args: { amount: 5 } }, { name: 'ask', args: { question: 'colour?' } }),
  'charged 5 and the user likes blue',
];

const agentWith = (model: ScriptedModel | ReplayModel, tools: readonly Tool[], instruction = 'Be brief.') =>
  new ReActAgent({ name: 'shop', model, tools, instruction });

/** Records a run that stops twice (approval + question), is resumed, and ends; read back from a fresh file store. */
async function record(): Promise<{ session: Session; answer: string | undefined; runs: string[] }> {
  const { runs, tools } = world();
  const runner = new Runner({
    agent: agentWith(new ScriptedModel({ responses: script() }), tools),
    appName: 'app',
    sessionStore: new FileSessionStore({ dir }),
  });
  const first = await runner.run({ userId: 'u', sessionId: 's', input: 'buy it' }).result();
  expect(first.status).toBe('interrupted');
  const values = Object.fromEntries(first.interrupts.map((i) => [i.id, i.reason === 'approval' ? true : 'blue']));
  const done = await runner.resume({ userId: 'u', sessionId: 's', values }).result();
  expect(done.status, done.error?.message).toBe('completed');
  const session = await new FileSessionStore({ dir }).get({ appName: 'app', userId: 'u', id: 's' });
  if (!session) throw new Error('no recorded session');
  return { session, answer: done.output, runs };
}

describe('ReplayModel and replayTools on a ReAct agent', () => {
  it('a run interrupted and resumed in the recording replays to its end in one run, with no tool side effects', async () => {
    const recorded = await record();
    expect(recorded.runs).toEqual(['flaky', 'ask colour?', 'charge 5', 'ask colour?']);
    for (const stream of [false, true]) {
      const { runs, tools } = world();
      const model = ReplayModel.fromSession(recorded.session);
      const runner = new Runner({ agent: agentWith(model, replayTools(recorded.session, tools)), appName: 'app' });
      const { result, events } = await collect(runner.run({ userId: 'u', input: 'buy it', stream }));
      expect(result.status, result.error?.message).toBe('completed');
      expect(result.output).toBe(recorded.answer);
      expect(runs).toEqual([]);
      expect(model.progress.get('shop')).toEqual({ served: 3, recorded: 3 });
      // The failed call's error result is stored exactly as recorded (so the next request matched).
      const stored = events.filter((e) => !e.partial);
      const strip = (calls: ReturnType<typeof recordedToolCalls>) => calls.map(({ callId: _id, ...c }) => c);
      expect(strip(recordedToolCalls(stored))).toEqual(strip(recordedToolCalls(recorded.session)));
      expect(recordedToolCalls(stored)[0]).toMatchObject({ name: 'flaky', error: 'Error: tool "flaky" failed: service down' });
      if (stream) expect(events.some((e) => e.partial)).toBe(true);
    }
  });

  it('live tools run for real and get the recorded answers to approvals and questions', async () => {
    const recorded = await record();
    const { runs, tools } = world();
    const model = ReplayModel.fromSession(recorded.session);
    const runner = new Runner({
      agent: agentWith(model, replayTools(recorded.session, tools, { live: ['charge', 'ask'] })),
      appName: 'app',
    });
    const result = await runner.run({ userId: 'u', input: 'buy it' }).result();
    expect(result.status, result.error?.message).toBe('completed');
    expect(runs.sort()).toEqual(['ask colour?', 'charge 5']); // flaky replayed, the other two ran once, no stop
  });

  it('a question never answered in the recording stops the replay with the same interrupt, without running the tool', async () => {
    const { runs, tools } = world();
    const runner = new Runner({
      agent: agentWith(new ScriptedModel({ responses: script() }), tools),
      appName: 'app',
      sessionStore: new FileSessionStore({ dir }),
    });
    const first = await runner.run({ userId: 'u', sessionId: 'open', input: 'buy it' }).result();
    const session = (await new FileSessionStore({ dir }).get({ appName: 'app', userId: 'u', id: 'open' })) as Session;
    const replayed = world();
    const result = await new Runner({
      agent: agentWith(ReplayModel.fromSession(session), replayTools(session, replayed.tools)),
      appName: 'app',
    })
      .run({ userId: 'u', input: 'buy it' })
      .result();
    expect(result.status).toBe('interrupted');
    expect(result.interrupts.map((i) => i.id).sort()).toEqual(first.interrupts.map((i) => i.id).sort());
    expect(replayed.runs).toEqual([]);
    expect(runs).toEqual(['flaky', 'ask colour?']);
  });

  it('strict replay names what differs: instruction, tool list, a tool schema, settings, the new message', async () => {
    const { session } = await record();
    const { tools } = world();
    const mismatch = async (agent: ReActAgent, input = 'buy it') => {
      const result = await new Runner({ agent, appName: 'app' }).run({ userId: 'u', input }).result();
      expect(result.error).toMatchObject({ name: 'ReplayError', kind: 'mismatch' });
      const error = result.error as ReplayError;
      expect(error.path).toBe('shop');
      expect(error.callIndex).toBe(0);
      return error.differences;
    };
    const replayed = () => replayTools(session, tools);
    expect(await mismatch(agentWith(ReplayModel.fromSession(session), replayed(), 'Be verbose.'))).toEqual([
      'the system prompt / instruction differs',
    ]);
    expect(await mismatch(agentWith(ReplayModel.fromSession(session), replayed().slice(1)))).toEqual([
      'the tool list differs (now: ask, flaky)',
    ]);
    const renamedArg = tool({
      name: 'charge',
      description: 'charges a card',
      parameters: z.object({ cents: z.number() }),
      execute: () => 0,
    });
    expect(await mismatch(agentWith(ReplayModel.fromSession(session), [renamedArg, ...replayed().slice(1)]))).toEqual([
      "a tool's description or parameter schema differs",
    ]);
    const warm = new ReActAgent({
      name: 'shop',
      model: ReplayModel.fromSession(session),
      tools: replayed(),
      instruction: 'Be brief.',
      settings: { temperature: 0.9 },
    });
    expect(await mismatch(warm)).toEqual(['the settings, tool choice or response format differ']);
    expect(await mismatch(agentWith(ReplayModel.fromSession(session), replayed()), 'sell it')).toEqual([
      'the last message differs: a user message',
    ]);
  });

  it('names a changed tool result, and a grown history', async () => {
    const { session } = await record();
    const { tools } = world();
    // The recorded "flaky" error result is replaced by a live success: the next request differs in its last message.
    const fixed = tool({ name: 'flaky', description: 'always fails', parameters: z.object({}), execute: () => 'ok now' });
    const agent = agentWith(
      ReplayModel.fromSession(session),
      replayTools(session, [tools[0] as Tool, tools[1] as Tool, fixed], { live: ['flaky'] }),
    );
    const result = await new Runner({ agent, appName: 'app' }).run({ userId: 'u', input: 'buy it' }).result();
    const error = result.error as ReplayError;
    expect(error).toMatchObject({ name: 'ReplayError', kind: 'mismatch' });
    expect(error.callIndex).toBe(1);
    expect(error.differences).toEqual(['the last message differs: the result of tool "flaky"']);

    // A request with one more message than recorded: the recorded ones unchanged, the new one named.
    const scripted = new ScriptedModel({ responses: [callTools({ name: 'flaky' }), 'done'] });
    const plain = new Runner({ agent: agentWith(scripted, [fixed]), appName: 'app' });
    const run = await collect(plain.run({ userId: 'u', input: 'try' }));
    const replay = ReplayModel.fromSession(run.events);
    const caller = { agent: { name: 'shop', path: 'shop' } };
    await replay.generate(scripted.requests[0] as ModelRequest, caller);
    const second = scripted.requests[1] as ModelRequest;
    const grown = { ...second, messages: [...second.messages, userMessage('and more')] };
    await expect(replay.generate(grown, caller)).rejects.toMatchObject({
      differences: ['the message count differs (recorded 3, now 4)', 'the recorded messages are unchanged; new after them: a user message'],
    });
    const stamped = run.events.find((e) => e.meta?.request)?.meta?.request as StoredRequestRecord;
    const parts = requestParts(stamped.parts);
    expect(parts?.messages).toBe(1); // the user input; the instruction is a system message, digested apart
  });

  it('strict: false serves the recording anyway and keeps the first difference', async () => {
    const { session, answer } = await record();
    const model = ReplayModel.fromSession(session, { strict: false });
    const result = await new Runner({ agent: agentWith(model, replayTools(session, world().tools), 'Be verbose.'), appName: 'app' })
      .run({ userId: 'u', input: 'buy it' })
      .result();
    expect(result.output).toBe(answer);
    expect(model.divergence).toEqual({ path: 'shop', callIndex: 0, differences: ['the system prompt / instruction differs'] });
  });

  it('past the recording: kind exhausted; without a caller: kind caller_unknown; streams and generates the recorded answer', async () => {
    const { session } = await record();
    const model = ReplayModel.fromSession(session, { strict: false });
    const agent = { name: 'shop', path: 'shop' };
    const request = { messages: [] };
    await expect(model.generate(request)).rejects.toMatchObject({ name: 'ReplayError', kind: 'caller_unknown' });
    const first = await model.generate(request, { agent });
    expect(first.message.content[0]).toMatchObject({ type: 'tool_call', name: 'flaky' });
    expect(first.finishReason).toBe('tool_calls');
    const parts: ModelStreamPart[] = [];
    for await (const part of model.stream(request, { agent })) parts.push(part);
    expect(parts.map((p) => p.type)).toEqual(['tool-call-delta', 'tool-call-delta', 'finish']);
    expect(parts[0]).toMatchObject({ name: 'charge', argsDelta: '{"amount":5}' });
    await model.generate(request, { agent });
    const exhausted = model.generate(request, { agent });
    await expect(exhausted).rejects.toMatchObject({ name: 'ReplayError', kind: 'exhausted' });
    await expect(exhausted).rejects.toMatchObject({ path: 'shop', callIndex: 3, recorded: 3 });
    await expect(model.generate(request, { agent: { name: 'other', path: 'other' } })).rejects.toMatchObject({
      path: 'other',
      recorded: 0,
    });
  });

  it('answers paths in the recorded call order; a path that never calls is waited for once', async () => {
    const answer = (path: string, call: number, text: string): AgentEvent => ({
      id: `e${call}`,
      invocationId: 'i1',
      author: path,
      path,
      timestamp: call,
      message: { role: 'assistant', content: [{ type: 'text', text }] },
      meta: { request: { fingerprint: '0'.repeat(16), parts: '0.0.0.0.0.0.0', call } },
    });
    const events = [answer('p', 1, 'p1'), answer('q', 2, 'q1'), answer('q', 3, 'q2')];
    const request = { messages: [] };
    const at = (path: string) => ({ agent: { name: path, path } });

    // q asks first, but p's call started first in the recording: q's answer waits for p's.
    const ordered = ReplayModel.fromSession(events, { strict: false });
    const served: string[] = [];
    const q = ordered.generate(request, at('q')).then((r) => served.push(messageText(r.message)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(served).toEqual([]);
    await ordered.generate(request, at('p')).then((r) => served.push(messageText(r.message)));
    await q;
    expect(served).toEqual(['p1', 'q1']);

    // p never calls: q waits for it once (orderWaitMs), then never again.
    const abandoned = ReplayModel.fromSession(events, { strict: false, orderWaitMs: 20 });
    expect(messageText((await abandoned.generate(request, at('q'))).message)).toBe('q1');
    let second = false;
    const next = abandoned.generate(request, at('q')).then(() => {
      second = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(second).toBe(true);
    await next;
  });

  it('a malformed recording is refused with a clear error', () => {
    const event = { id: 'e1', invocationId: 'i', author: 'shop', path: 'shop', timestamp: 1, meta: { request: { fingerprint: 42 } } };
    expect(() => ReplayModel.fromSession([event as unknown as AgentEvent])).toThrow(ReplayError);
    expect(() => ReplayModel.fromSession([event as unknown as AgentEvent])).toThrow(/e1.*malformed meta.request/);
    expect(() => ReplayModel.fromSession({} as unknown as Session)).toThrow(ReplayError);
  });
});
