import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  InMemorySessionStore,
  ReActAgent,
  Runner,
  SequentialAgent,
  agentTool,
  jsonSchema,
  messageText,
  readChildSessionLink,
  tool,
  toolResultsOf,
} from '@replan/core';
import { AGENT_TOOL_INPUT_KIND, childSessionId } from '@replan/core/agent-kit';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { collect } from './support.js';
import { pipeline } from './support/agent-tool-pipeline.js';

describe('agentTool: a child session per call', () => {
  it('runs the agent on the tool input only, in a linked child session, and returns its answer', async () => {
    const { inner, outer, runner, store } = pipeline();
    const { events, result } = await collect(runner.run({ userId: 'u', sessionId: 's', input: 'SECRET outer question' }));
    expect(result.status).toBe('completed');
    expect(result.output).toBe('Answer: tides are lunar.');
    // The inner model saw only the tool's input: not the outer user's message, not the outer tool call.
    expect(inner.requests[0]?.messages.map((m) => messageText(m))).toEqual(['tides']);
    expect(JSON.stringify(inner.requests[0])).not.toContain('SECRET');
    // The outer model got the inner answer as the tool result.
    expect(toolResultsOf(outer.requests[1]?.messages.at(-1))[0]).toMatchObject({ toolCallId: 'o1', output: 'researched: tides' });

    const childId = childSessionId('s', result.invocationId, 'o1');
    const child = await store.get({ appName: 'compose', userId: 'u', id: childId });
    expect(child?.events[0]?.meta?.kind).toBe(AGENT_TOOL_INPUT_KIND);
    expect(readChildSessionLink(child?.events[0]?.meta)).toEqual({
      schemaVersion: 1,
      parentSessionId: 's',
      parentInvocationId: result.invocationId,
      toolCallId: 'o1',
      toolName: 'research',
      path: 'root',
    });
    expect(child?.events.at(-1)?.actions?.invocationEnd).toEqual({ status: 'completed', output: 'researched: tides' });
    // The other direction: the outer tool result names the child session.
    const parent = await store.get({ appName: 'compose', userId: 'u', id: 's' });
    const resultEvent = parent?.events.find((e) => toolResultsOf(e.message).length);
    expect(resultEvent?.meta?.childSessionId).toBe(childId);

    // Nested events reach the outer stream under the nested path, and are not stored in the outer log.
    const nested = events.filter((e) => e.path.startsWith('root/research/'));
    expect(nested.map((e) => e.path)).toEqual(['root/research/researcher']);
    expect(nested[0]?.meta?.childSessionId).toBe(childId);
    expect(nested[0]?.actions?.final?.text).toBe('researched: tides');
    expect(parent?.events.some((e) => e.path.startsWith('root/research'))).toBe(false);
    expect(parent?.events.some((e) => e.invocationId !== result.invocationId)).toBe(false);
  });

  it('counts the nested model calls and tokens in the outer run result', async () => {
    const { runner } = pipeline();
    const { result } = await collect(runner.run({ userId: 'u', sessionId: 's', input: 'q' }));
    // 2 outer calls + 1 inner call, each 10 input + 5 output tokens (ScriptedModel's default usage).
    expect(result.modelCalls).toBe(3);
    expect(result.usage).toMatchObject({ inputTokens: 30, outputTokens: 15 });
    // By agent path, the nested calls under their nested path.
    expect(result.breakdown.byAgent.root).toMatchObject({ modelCalls: 2 });
    expect(result.breakdown.byAgent['root/research/researcher']).toMatchObject({ modelCalls: 1, usage: { inputTokens: 10 } });
    expect(Object.keys(result.breakdown.byAgent).sort()).toEqual(['root', 'root/research/researcher']);
    // The session's totals, read from the stores, take in the child session's call too.
    expect(result.session).toMatchObject({ modelCalls: 3, usage: { inputTokens: 30, outputTokens: 15 } });
  });

  it('streams the child model output as partial events under the nested path (never stored)', async () => {
    const { runner, store } = pipeline();
    const { events, result } = await collect(runner.run({ userId: 'u', sessionId: 'st', input: 'q', stream: true }));
    expect(result.status).toBe('completed');
    const partials = events.filter((e) => e.partial && e.path === 'root/research/researcher');
    expect(partials.map((e) => messageText(e.message)).join('')).toBe('researched: tides');
    const child = await store.get({ appName: 'compose', userId: 'u', id: childSessionId('st', result.invocationId, 'o1') });
    expect(child?.events.some((e) => e.partial)).toBe(false);
  });

  it('typed parameters: input() builds the child message, output() maps the child result; bad args are an error result', async () => {
    const inner = new ScriptedModel({ respond: (req) => `{"score": ${messageText(req.messages.at(-1)).length}}` });
    const scorer = new ReActAgent({ name: 'scorer', model: inner, outputSchema: z.object({ score: z.number() }) });
    const seen: unknown[] = [];
    const scoreTool = agentTool(scorer, {
      name: 'score',
      description: 'Scores a text',
      parameters: z.object({ text: z.string(), lang: z.enum(['en', 'fr']) }),
      input: ({ text, lang }) => `${lang}:${text}`,
      output: (result) => {
        seen.push(result.structured);
        return { score: (result.structured as { score: number }).score, status: result.status };
      },
    });
    expect(scoreTool.jsonSchema).toMatchObject({ properties: { text: { type: 'string' }, lang: { enum: ['en', 'fr'] } } });
    const outer = new ScriptedModel({
      responses: [
        callTools(
          { name: 'score', args: { text: 'abc', lang: 'de' }, id: 'bad' },
          { name: 'score', args: { text: 'abc', lang: 'en' }, id: 'ok' },
        ),
        'done',
      ],
    });
    const runner = new Runner({ agent: new ReActAgent({ name: 'root', model: outer, tools: [scoreTool] }), appName: 'compose' });
    const { result } = await collect(runner.run({ userId: 'u', input: 'go' }));
    expect(result.status).toBe('completed');
    const results = outer.requests[1]?.messages.flatMap((m) => toolResultsOf(m)) ?? [];
    expect(results.find((r) => r.toolCallId === 'bad')).toMatchObject({ isError: true });
    expect(String(results.find((r) => r.toolCallId === 'bad')?.output)).toMatch(/invalid arguments for "score": lang/);
    expect(results.find((r) => r.toolCallId === 'ok')?.output).toEqual({ score: 6, status: 'completed' });
    expect(inner.requests.map((r) => messageText(r.messages.at(-1)))).toEqual(['en:abc']);
    expect(seen).toEqual([{ score: 6 }]);
  });

  it('parameters may be a plain JSON Schema (any schema tool() accepts)', async () => {
    const inner = new ScriptedModel({ respond: (req) => `about ${messageText(req.messages.at(-1))}` });
    const researcher = new ReActAgent({ name: 'researcher', model: inner });
    const research = agentTool(researcher, {
      name: 'research',
      parameters: jsonSchema<{ topic: string }>({ type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] }),
      input: ({ topic }) => `topic: ${topic}`,
    });
    expect(research.schemaKind).toBe('JSON Schema');
    const outer = new ScriptedModel({
      responses: [callTools({ name: 'research', args: {}, id: 'bad' }, { name: 'research', args: { topic: 'moon' }, id: 'ok' }), 'done'],
    });
    const runner = new Runner({ agent: new ReActAgent({ name: 'root', model: outer, tools: [research] }), appName: 'c' });
    expect((await runner.run({ userId: 'u', input: 'q' }).result()).status).toBe('completed');
    const results = outer.requests[1]?.messages.flatMap((m) => toolResultsOf(m)) ?? [];
    expect(results.find((r) => r.toolCallId === 'bad')?.isError).toBe(true);
    expect(results.find((r) => r.toolCallId === 'ok')?.output).toBe('about topic: moon');
  });

  it('parallel calls in one turn each get their own child session', async () => {
    const outer = new ScriptedModel({
      responses: [
        callTools({ name: 'research', args: { input: 'moon' }, id: 'p1' }, { name: 'research', args: { input: 'sun' }, id: 'p2' }),
        'both done',
      ],
    });
    const inner = new ScriptedModel({ latencyMs: 5, respond: (req) => `about ${messageText(req.messages.at(-1))}` });
    const { runner, store } = pipeline({ outer, inner });
    const { events, result } = await collect(runner.run({ userId: 'u', sessionId: 'par', input: 'q' }));
    expect(result.status).toBe('completed');
    const results = outer.requests[1]?.messages.flatMap((m) => toolResultsOf(m)) ?? [];
    expect(Object.fromEntries(results.map((r) => [r.toolCallId, r.output]))).toEqual({ p1: 'about moon', p2: 'about sun' });
    const ids = ['p1', 'p2'].map((c) => childSessionId('par', result.invocationId, c));
    expect(new Set(ids).size).toBe(2);
    for (const [i, topic] of [
      [0, 'moon'],
      [1, 'sun'],
    ] as const) {
      const child = await store.get({ appName: 'compose', userId: 'u', id: ids[i] as string });
      expect(messageText(child?.events[0]?.message)).toBe(topic);
    }
    expect(new Set(events.filter((e) => e.path === 'root/research/researcher').map((e) => e.meta?.childSessionId))).toEqual(new Set(ids));
  });

  it('asTool() on a workflow agent: the whole tree runs in the child session, paths nested under the tool', async () => {
    const first = new ReActAgent({ name: 'drafter', model: new ScriptedModel({ respond: () => 'draft' }) });
    const second = new ReActAgent({ name: 'editor', model: new ScriptedModel({ respond: () => 'edited draft' }) });
    const writing = new SequentialAgent({ name: 'writing', subAgents: [first, second] });
    const outer = new ScriptedModel({ responses: [callTools({ name: 'write', args: { input: 'a post' }, id: 'w1' }), 'posted'] });
    const runner = new Runner({
      agent: new ReActAgent({ name: 'root', model: outer, tools: [writing.asTool({ name: 'write' })] }),
      appName: 'c',
    });
    const { events, result } = await collect(runner.run({ userId: 'u', input: 'q' }));
    expect(result.status).toBe('completed');
    expect(toolResultsOf(outer.requests[1]?.messages.at(-1))[0]?.output).toBe('edited draft');
    const nestedPaths = events.filter((e) => e.meta?.childSessionId).map((e) => e.path);
    expect(nestedPaths).toEqual(expect.arrayContaining(['root/write/writing/drafter', 'root/write/writing/editor']));
  });

  it('a child run that fails gives the outer model an error tool result with the reason', async () => {
    const inner = new ScriptedModel({ responses: [new Error('inner model exploded')] });
    const { outer, runner } = pipeline({ inner });
    const { result } = await collect(runner.run({ userId: 'u', input: 'q' }));
    expect(result.status).toBe('completed');
    const toolResult = toolResultsOf(outer.requests[1]?.messages.at(-1))[0];
    expect(toolResult).toMatchObject({ toolCallId: 'o1', isError: true });
    expect(String(toolResult?.output)).toMatch(/Agent "researcher" \(tool "research"\) ended failed.*inner model exploded/);
  });

  it('a child stopping at max_iterations is an error result too', async () => {
    const looping = new ScriptedModel({ respond: () => callTools({ name: 'noop', args: {} }) });
    const noop = tool({ name: 'noop', description: 'nothing', parameters: z.object({}), execute: () => 'ok' });
    const researcher = new ReActAgent({ name: 'researcher', model: looping, tools: [noop], maxIterations: 2 });
    const outer = new ScriptedModel({ responses: [callTools({ name: 'research', args: { input: 'x' }, id: 'o1' }), 'gave up'] });
    const store = new InMemorySessionStore();
    const runner = new Runner({
      agent: new ReActAgent({ name: 'root', model: outer, tools: [agentTool(researcher, { name: 'research' })] }),
      appName: 'c',
      sessionStore: store,
    });
    const { result } = await collect(runner.run({ userId: 'u', sessionId: 'm', input: 'q' }));
    expect(result.status).toBe('completed');
    const toolResult = toolResultsOf(outer.requests[1]?.messages.at(-1))[0];
    expect(toolResult?.isError).toBe(true);
    expect(String(toolResult?.output)).toMatch(/ended max_iterations without an answer: Agent "researcher" reached maxIterations \(2\)/);
    expect(looping.calls).toBe(2);
  });

  it('aborting the outer run aborts the child; resuming finishes both without repeating finished calls', async () => {
    const inner = new ScriptedModel({ latencyMs: 10_000, respond: () => 'slow answer' });
    const { outer, runner } = pipeline({ inner });
    const controller = new AbortController();
    const run = runner.run({ userId: 'u', sessionId: 'ab', input: 'q', signal: controller.signal });
    const events = (async () => {
      for await (const e of run) if (e.message?.role === 'assistant' && e.path === 'root') setTimeout(() => controller.abort(), 20);
    })();
    const result = await run.result();
    await events;
    expect(result.status).toBe('aborted');
    expect(inner.calls).toBe(1);
    expect(outer.calls).toBe(1);

    const fast = new ScriptedModel({ respond: () => 'fast answer' });
    const resumed = pipeline({ inner: fast, outer, store: runner.sessionStore as InMemorySessionStore });
    const done = await collect(resumed.runner.resume({ userId: 'u', sessionId: 'ab' }));
    expect(done.result.status).toBe('completed');
    expect(fast.calls).toBe(1);
    expect(outer.calls).toBe(2); // the outer tool call was not asked for again
    expect(toolResultsOf(outer.requests[1]?.messages.at(-1))[0]?.output).toBe('fast answer');
  });

  it('shares the outer budget: the child cannot spend more than the outer run has left', async () => {
    const inner = new ScriptedModel({
      responses: [callTools({ name: 'noop', args: {}, id: 'n1' }), 'inner done'],
    });
    const noop = tool({ name: 'noop', description: 'nothing', parameters: z.object({}), execute: () => 'ok' });
    const researcher = new ReActAgent({ name: 'researcher', model: inner, tools: [noop] });
    const outer = new ScriptedModel({ responses: [callTools({ name: 'research', args: { input: 'x' }, id: 'o1' }), 'final'] });
    const runner = new Runner({
      agent: new ReActAgent({ name: 'root', model: outer, tools: [agentTool(researcher, { name: 'research' })] }),
      appName: 'c',
    });
    const first = await collect(runner.run({ userId: 'u', sessionId: 'b', input: 'q', limits: { maxModelCalls: 2 } }));
    expect(first.result.status).toBe('budget_exceeded');
    expect(first.result.error?.name).toBe('BudgetExceededError');
    expect(first.result.modelCalls).toBe(2); // 1 outer + 1 inner: the inner agent's second call was refused
    expect([outer.calls, inner.calls]).toEqual([1, 1]);

    const second = await collect(runner.resume({ userId: 'u', sessionId: 'b', limits: { maxModelCalls: 2 } }));
    expect(second.result.status).toBe('completed');
    expect([outer.calls, inner.calls]).toEqual([2, 2]); // nothing that finished was asked again
    expect(toolResultsOf(outer.requests[1]?.messages.at(-1))[0]?.output).toBe('inner done');
  });
});
