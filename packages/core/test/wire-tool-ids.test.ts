import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InMemorySessionStore, ReActAgent, Runner, type Session, tool } from '@replan/core';
import { ReplayModel, ScriptedModel, callTools, replayTools } from '@replan/core/testing';
import { withWireSafeToolIds, wireToolId } from '../src/invocation/wire-tool-ids.js';
import { assistantMessage, toolMessage, userMessage, type Message } from '../src/messages/message.js';
import type { ModelRequest } from '../src/models/chat-model.js';

const call = (id: string): Message => assistantMessage([{ type: 'tool_call', id, name: 't', args: {} }]);
const result = (id: string): Message => toolMessage([{ type: 'tool_result', toolCallId: id, name: 't', output: 'ok' }]);
const request = (...ids: string[]): ModelRequest => ({ messages: [userMessage('hi'), ...ids.flatMap((id) => [call(id), result(id)])] });
const idsOf = (r: ModelRequest) =>
  r.messages.flatMap((m) => m.content.flatMap((b) => (b.type === 'tool_call' ? [b.id] : b.type === 'tool_result' ? [b.toolCallId] : [])));

describe('wire-safe tool-call ids', () => {
  it('leaves a request whose ids are all safe as it is (the same object)', () => {
    const r = request('toolu_01A', 'call-2');
    expect(withWireSafeToolIds(r)).toBe(r);
  });

  it('maps an unsafe id the same way in its call and its result, deterministically, and keeps safe ids', () => {
    const sent = withWireSafeToolIds(request('f1', 'f1:compensate'));
    const ids = idsOf(sent);
    expect(ids[0]).toBe('f1');
    expect(ids[2]).toMatch(/^f1_compensate_[0-9a-f]{12}$/);
    expect(ids[3]).toBe(ids[2]);
    expect(idsOf(withWireSafeToolIds(request('f1', 'f1:compensate')))).toEqual(ids); // same request, same wire
  });

  it('keeps distinct ids distinct: ids that read the same, and an id whose mapping a safe id of the request already holds', () => {
    const taken = wireToolId('a:b');
    const ids = idsOf(withWireSafeToolIds(request('a:b', 'a.b', taken)));
    for (const id of ids) expect(id).toMatch(/^[a-zA-Z0-9_-]+$/);
    const [ab, dot, kept] = [ids[0], ids[2], ids[4]];
    expect(kept).toBe(taken);
    expect(new Set([ab, dot, kept]).size).toBe(3);
  });
});

describe('wire-safe tool-call ids over the calls of one run (memo per invocation)', () => {
  it('finds an unsafe id added after a checked head, and one in a head that changed (compaction), and checks each message once', () => {
    const run = {};
    const first = request('call_1', 'call_2');
    expect(withWireSafeToolIds(first, run)).toBe(first);
    const grown: ModelRequest = { messages: [...first.messages, call('f1:compensate'), result('f1:compensate')] };
    const ids = idsOf(withWireSafeToolIds(grown, run));
    expect(ids.slice(0, 4)).toEqual(['call_1', 'call_1', 'call_2', 'call_2']);
    expect(ids[4]).toMatch(/^f1_compensate_[0-9a-f]{12}$/);
    const rewritten: ModelRequest = { messages: [userMessage('summary'), call('s:1'), result('s:1')] };
    expect(idsOf(withWireSafeToolIds(rewritten, run))[0]).toMatch(/^s_1_[0-9a-f]{12}$/);

    // A run resends its history: the head already checked is compared by identity, not read again.
    const history: Message[] = [userMessage('go')];
    const reads = { count: 0 };
    const counted = (m: Message): Message =>
      new Proxy(m, { get: (t, k) => (k === 'content' && reads.count++, Reflect.get(t, k)) }) as Message;
    const loop = {};
    for (let i = 0; i < 50; i++) {
      history.push(counted(call(`call_${i}`)), counted(result(`call_${i}`)));
      withWireSafeToolIds({ messages: [...history] }, loop);
    }
    expect(reads.count).toBe(100); // each of the 100 tool messages once, not 2,550 times
  });
});

describe('a session with an unsafe tool-call id, replayed', () => {
  it('is sent mapped, and replays strictly (fingerprints leave tool-call ids out: the mapping never makes a mismatch)', async () => {
    const lookup = tool({ name: 'lookup', description: 'Looks up.', parameters: z.object({}), execute: () => 'found' });
    const store = new InMemorySessionStore();
    // Some servers hand out ids like `call:1`: the next request sends it mapped.
    const recording = new ScriptedModel({ responses: [callTools({ name: 'lookup', id: 'call:1' }), 'done'] });
    const runner = new Runner({
      agent: new ReActAgent({ name: 'a', model: recording, tools: [lookup] }),
      appName: 'app',
      sessionStore: store,
    });
    expect((await runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result()).status).toBe('completed');
    expect(idsOf(recording.requests[1] as ModelRequest)[0]).toMatch(/^call_1_[0-9a-f]{12}$/);
    const session = (await store.get({ appName: 'app', userId: 'u', id: 's' })) as Session;
    const replayed = await new Runner({
      agent: new ReActAgent({ name: 'a', model: ReplayModel.fromSession(session), tools: replayTools(session, [lookup]) }),
      appName: 'app',
    })
      .run({ userId: 'u', input: 'go' })
      .result();
    expect(replayed.error?.message).toBeUndefined();
    expect(replayed.output).toBe('done');
  });
});
