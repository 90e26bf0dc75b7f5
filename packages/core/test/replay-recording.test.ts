import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AgentEvent, ReActAgent, Runner, type Tool, tool, planReActTags } from '@replan/core';
import { ReplayModel, ScriptedModel, callTools, replayTools } from '@replan/core/testing';
import type { StoredRequestRecord } from '../src/invocation/response-record.js';

const requestOf = (event: AgentEvent | undefined) => event?.meta?.request as StoredRequestRecord | undefined;

describe('what a recording keeps of each model response', () => {
  it('a rewritten message (PlanReAct tags) keeps the raw response, and the replay serves it verbatim', async () => {
    const search = tool({ name: 'search', description: 'search', parameters: z.object({ q: z.string() }), execute: () => 'found 42' });
    const raw = '/*REASONING*/ the search said 42 /*FINAL_ANSWER*/ The answer is 42.';
    const model = new ScriptedModel({ responses: [callTools({ name: 'search', args: { q: 'answer' } }), raw] });
    const build = (m: ScriptedModel | ReplayModel, tools: readonly Tool[] = [search]) =>
      new ReActAgent({ name: 'solver', model: m, tools, middleware: [planReActTags()], instruction: 'Solve it.' });
    const runner = new Runner({ agent: build(model), appName: 'plan' });
    const result = await runner.run({ userId: 'u', input: 'what is the answer?' }).result();
    const session = await runner.sessionStore.get({ appName: 'plan', userId: 'u', id: result.sessionId });
    const events = session?.events ?? [];
    const final = events.find((e) => e.actions?.final);
    // The stored message is the processed one; the model's own text rides along in meta.request.
    expect(final?.message?.content[0]?.type).toBe('reasoning');
    expect(requestOf(final)?.response).toEqual({ role: 'assistant', content: [{ type: 'text', text: raw }] });
    // The tool call turn was stored as it came: no copy of it.
    expect(requestOf(events.find((e) => e.message?.content.some((b) => b.type === 'tool_call')))?.response).toBeUndefined();
    expect(requestOf(final)?.call).toBe(2);

    const replay = ReplayModel.fromSession(events);
    const again = await new Runner({ agent: build(replay, replayTools(events, [search])), appName: 'plan' })
      .run({ userId: 'u', input: 'what is the answer?' })
      .result();
    expect(again.status, again.error?.message).toBe('completed');
    expect(again.output).toBe('The answer is 42.');
  });

  it('an unusual finish reason is recorded and replayed', async () => {
    const model = new ScriptedModel({
      responses: [{ message: { role: 'assistant', content: [{ type: 'text', text: 'cut sho' }] }, finishReason: 'length' }],
    });
    const agent = (m: ScriptedModel | ReplayModel) => new ReActAgent({ name: 'writer', model: m });
    const runner = new Runner({ agent: agent(model), appName: 'w' });
    const result = await runner.run({ userId: 'u', input: 'write' }).result();
    const events = (await runner.sessionStore.get({ appName: 'w', userId: 'u', id: result.sessionId }))?.events ?? [];
    expect(requestOf(events.find((e) => e.meta?.request))?.finishReason).toBe('length');
    const replay = ReplayModel.fromSession(events);
    // Strict: an empty request is not the recorded one; strict: false serves the recorded response as it was.
    await expect(replay.generate({ messages: [] }, { agent: { name: 'writer', path: 'writer' } })).rejects.toMatchObject({
      name: 'ReplayError',
      kind: 'mismatch',
    });
    const lenient = ReplayModel.fromSession(events, { strict: false });
    expect((await lenient.generate({ messages: [] }, { agent: { name: 'writer', path: 'writer' } })).finishReason).toBe('length');
  });

  it('a store that gives object keys back in another order (e.g. JSONB) still matches: keys are digested sorted', async () => {
    const book = tool({
      name: 'book',
      description: 'books',
      parameters: z.object({ zone: z.string(), city: z.string() }),
      execute: ({ city }) => ({ ref: city, ok: true }),
    });
    const model = new ScriptedModel({ responses: [callTools({ name: 'book', args: { zone: 'c', city: 'Porto' } }), 'done'] });
    const runner = new Runner({ agent: new ReActAgent({ name: 'b', model, tools: [book] }), appName: 'k' });
    const result = await runner.run({ userId: 'u', input: 'go' }).result();
    const events = (await runner.sessionStore.get({ appName: 'k', userId: 'u', id: result.sessionId }))?.events ?? [];
    const sortKeys = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(sortKeys)
        : value && typeof value === 'object'
          ? Object.fromEntries(
              Object.entries(value)
                .sort(([a], [b]) => (a < b ? -1 : 1))
                .map(([k, v]) => [k, sortKeys(v)]),
            )
          : value;
    const reordered = events.map((e) => sortKeys(e) as AgentEvent);
    const replay = ReplayModel.fromSession(reordered);
    const again = await new Runner({
      agent: new ReActAgent({ name: 'b', model: replay, tools: replayTools(reordered, [book]) }),
      appName: 'k',
    })
      .run({ userId: 'u', input: 'go' })
      .result();
    expect(again.status, again.error?.message).toBe('completed');
    expect(replay.finished).toBe(true);
  });
});
