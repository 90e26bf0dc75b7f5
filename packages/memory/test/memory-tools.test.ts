import { describe, expect, it } from 'vitest';
import { ConfigurationError, InMemorySessionStore, ReActAgent, Runner, type AgentEvent, type ToolResultBlock } from '@replan/core';
import { ScriptedModel, callTools, type ScriptedToolCall } from '@replan/core/testing';
import { InMemoryMemoryStore, memoryTools, type MemoryStore } from '@replan/memory';
import { ScriptedMemoryStore } from './support/scripted-store.js';

const results = (events: readonly AgentEvent[]): ToolResultBlock[] =>
  events.flatMap((e) =>
    e.message?.role === 'tool' ? e.message.content.filter((b): b is ToolResultBlock => b.type === 'tool_result') : [],
  );

/** One run of an agent with the memory tools, the model calling `calls` then answering. */
async function runWith(store: MemoryStore, userId: string, calls: ScriptedToolCall[], sessions = new InMemorySessionStore()) {
  const model = new ScriptedModel({ responses: [callTools(...calls), 'done'] });
  const agent = new ReActAgent({ name: 'assistant', model, tools: memoryTools({ store }) });
  const runner = new Runner({ agent, appName: 'shop', sessionStore: sessions });
  const result = await runner.run({ userId, input: 'go' }).result();
  const session = await sessions.get({ appName: 'shop', userId, id: result.sessionId });
  return { result, events: session?.events ?? [], out: results(session?.events ?? []) };
}

const itemsOf = async (store: MemoryStore, userId: string) => (await store.list({ scope: { appName: 'shop', userId } })).items;

describe('memoryTools', () => {
  it('remember in one session, recall in the next: the memory carries its source', async () => {
    const store = new InMemoryMemoryStore();
    const first = await runWith(store, 'alice', [{ name: 'remember', args: { text: 'Alice prefers window seats on trains' } }]);
    expect(first.result.status).toBe('completed');
    expect(first.out[0]?.isError).toBeFalsy();
    const [item] = await itemsOf(store, 'alice');
    expect(item?.scope).toEqual({ appName: 'shop', userId: 'alice' });
    expect(item?.kind).toBe('fact');
    expect(item?.source).toEqual({ sessionId: first.result.sessionId, invocationId: first.events[0]?.invocationId });

    const second = await runWith(store, 'alice', [{ name: 'recall', args: { query: 'seats on trains' } }]);
    const output = second.out[0]?.output as { memories: { id: string; text: string; source: { sessionId: string } }[] };
    expect(output.memories.map((m) => m.text)).toEqual(['Alice prefers window seats on trains']);
    expect(output.memories[0]?.source.sessionId).toBe(first.result.sessionId);
  });

  it("hostile ids: another user's run never reads, finds or deletes alice's memories", async () => {
    const store = new InMemoryMemoryStore();
    await runWith(store, 'alice', [{ name: 'remember', args: { text: 'Alice card ends 4242' } }]);
    const id = (await itemsOf(store, 'alice'))[0]?.id as string;
    for (const userId of ['bob', 'alice ', 'Alice', 'alice/..', '*', 'alice\u200b', "alice' OR '1'='1", '%']) {
      const run = await runWith(store, userId, [
        // The model tries to name the user and the scope: the tools take no such argument.
        { name: 'recall', args: { query: 'Alice card', userId: 'alice', scope: { appName: 'shop', userId: 'alice' } } },
        { name: 'forget', args: { id, userId: 'alice' } },
        { name: 'remember', args: { text: 'planted', userId: 'alice' } },
      ]);
      expect(run.result.status).toBe('completed');
      const byName = (name: string) => run.out.find((r) => r.name === name)?.output;
      expect(byName('recall')).toEqual({ memories: [] });
      expect(byName('forget')).toEqual({ forgotten: false });
    }
    expect((await itemsOf(store, 'alice')).map((i) => i.text)).toEqual(['Alice card ends 4242']);
    expect((await itemsOf(store, 'bob')).map((i) => i.text)).toEqual(['planted']); // bob's own, in bob's scope
    // Alice herself can forget it.
    const own = await runWith(store, 'alice', [{ name: 'forget', args: { id } }]);
    expect(own.out[0]?.output).toEqual({ forgotten: true });
  });

  it('a remember run again after a crash (same tool call) stores nothing twice', async () => {
    const store = new ScriptedMemoryStore();
    const remember = memoryTools({ store }).find((t) => t.name === 'remember');
    const ctx = {
      toolName: 'remember',
      toolCallId: 'c1',
      idempotencyKey: 's1:c1',
      agentName: 'a',
      appName: 'shop',
      userId: 'u',
      sessionId: 's1',
      invocationId: 'i1',
      signal: new AbortController().signal,
      state: { get: () => undefined, has: () => false, set: () => undefined, toObject: () => ({}) },
      interrupt: () => undefined as never,
    };
    const a = await remember?.execute({ text: 'the build uses pnpm' }, ctx);
    const b = await remember?.execute({ text: 'the build uses pnpm' }, ctx);
    expect(a).toEqual(b);
    expect(store.items).toHaveLength(1);
    await remember?.execute({ text: 'the build uses pnpm' }, { ...ctx, toolCallId: 'c2', idempotencyKey: 's1:c2' });
    expect(store.items).toHaveLength(2); // a second call of the model is a second memory
  });

  it('a store that is down: the tool call fails with the reason, the run goes on', async () => {
    const store = new ScriptedMemoryStore();
    store.down = 'memory database unreachable';
    const run = await runWith(store, 'alice', [{ name: 'recall', args: { query: 'x' } }]);
    expect(run.result.status).toBe('completed');
    expect(run.out[0]?.isError).toBe(true);
    expect(String(run.out[0]?.output)).toContain('memory database unreachable');
  });

  it('a 1 MB memory: the tool call fails saying it is too large, nothing stored, the run goes on', async () => {
    const store = new InMemoryMemoryStore();
    const run = await runWith(store, 'alice', [{ name: 'remember', args: { text: 'x'.repeat(1024 * 1024) } }]);
    expect(run.result.status).toBe('completed');
    expect(run.out[0]?.isError).toBe(true);
    expect(String(run.out[0]?.output)).toMatch(/The memory text is 1048576 bytes .* over the store's limit/);
    expect(await itemsOf(store, 'alice')).toEqual([]);
  });

  it('bad options are a ConfigurationError saying what to pass', () => {
    const store = new ScriptedMemoryStore();
    expect(() => memoryTools({} as never)).toThrow(ConfigurationError);
    expect(() => memoryTools({ store, scope: 'bob' as never })).toThrow(/scope must be 'user' .* or 'app'/);
    expect(() => memoryTools({ store, k: 0 })).toThrow(/k must be an integer from 1 to 20/);
  });
});
