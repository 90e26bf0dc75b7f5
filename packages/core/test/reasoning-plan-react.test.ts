import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type ContentBlock,
  type Message,
  type ModelRequest,
  type ToolSpec,
  ReActAgent,
  Runner,
  messageText,
  planReActTags,
  tool,
} from '@replan/core';
import { PLAN_REACT_TAGS, joinPlanReActTags, splitPlanReActTags } from '@replan/core/agent-kit';
import { ScriptedModel, callTools } from '@replan/core/testing';

const tags = planReActTags();
/** The middleware's rewrite of one model answer. */
const processResponse = async (message: Message): Promise<Message> =>
  (await tags.wrapModelCall?.(async () => ({ message, finishReason: 'stop' }), { messages: [] }, {} as never))?.message as Message;
/** The system instruction the middleware adds for an agent with these tools (and no instruction of its own). */
const instructionFor = async (tools: ToolSpec[]): Promise<string> => {
  let seen: ModelRequest | undefined;
  const answer = { message: { role: 'assistant' as const, content: [] }, finishReason: 'stop' as const };
  await tags.wrapModelCall?.(
    async (r) => {
      seen = r;
      return answer;
    },
    { messages: [], tools },
    {} as never,
  );
  return messageText(seen?.messages[0]);
};
const text = (t: string): ContentBlock => ({ type: 'text', text: t });
const assistant = (...content: ContentBlock[]): Message => ({ role: 'assistant', content });

/** Freezes a message all the way down, so any write to the input throws in strict mode. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

describe('splitPlanReActTags', () => {
  it.each([
    ['planning', PLAN_REACT_TAGS.planning],
    ['replanning', PLAN_REACT_TAGS.replanning],
    ['reasoning', PLAN_REACT_TAGS.reasoning],
    ['action', PLAN_REACT_TAGS.action],
  ] as const)('turns %s-tagged text into a reasoning block with that kind', (kind, tag) => {
    expect(splitPlanReActTags([text(`${tag}\n  step one\n`)])).toEqual([{ type: 'reasoning', reasoning: 'step one', reasoningKind: kind }]);
  });

  it('turns the final answer into tag-free text after kinded reasoning', () => {
    const out = splitPlanReActTags([
      text('/*PLANNING*/ 1. look it up /*REASONING*/ found it /*ACTION*/ answer /*FINAL_ANSWER*/ It is 42.'),
    ]);
    expect(out).toEqual([
      { type: 'reasoning', reasoning: '1. look it up', reasoningKind: 'planning' },
      { type: 'reasoning', reasoning: 'found it', reasoningKind: 'reasoning' },
      { type: 'reasoning', reasoning: 'answer', reasoningKind: 'action' },
      { type: 'text', text: 'It is 42.' },
    ]);
  });

  it('handles a paired FINAL_ANSWER around the answer', () => {
    expect(splitPlanReActTags([text('/*REASONING*/ easy /*FINAL_ANSWER*/ 42 /*FINAL_ANSWER*/')])).toEqual([
      { type: 'reasoning', reasoning: 'easy', reasoningKind: 'reasoning' },
      { type: 'text', text: '42' },
    ]);
  });

  it('joins repeated FINAL_ANSWER parts into one answer and splits repeated reasoning tags', () => {
    const out = splitPlanReActTags([text('/*REASONING*/ a /*REASONING*/ b /*FINAL_ANSWER*/ part one /*FINAL_ANSWER*/ part two')]);
    expect(out).toEqual([
      { type: 'reasoning', reasoning: 'a', reasoningKind: 'reasoning' },
      { type: 'reasoning', reasoning: 'b', reasoningKind: 'reasoning' },
      { type: 'text', text: 'part one\n\npart two' },
    ]);
  });

  it('never lets a tag reach the answer, whatever is written after it', () => {
    const out = splitPlanReActTags([text('/*final_answer*/ 42 /* REASONING */ double-checked /*/REASONING*/ /*FINAL ANSWER*/ sure')]);
    const answer = out.filter((b) => b.type === 'text');
    expect(answer).toEqual([{ type: 'text', text: '42\n\nsure' }]);
    expect(out).toContainEqual({ type: 'reasoning', reasoning: 'double-checked', reasoningKind: 'reasoning' });
    expect(JSON.stringify(answer)).not.toMatch(/\/\*|\*\//);
  });

  it('treats untagged text as reasoning when there is a final answer, and as text when not', () => {
    expect(splitPlanReActTags([text('Hmm, let me see. /*FINAL_ANSWER*/ 7')])).toEqual([
      { type: 'reasoning', reasoning: 'Hmm, let me see.' },
      { type: 'text', text: '7' },
    ]);
    expect(splitPlanReActTags([text('/*PLANNING*/ check /*/PLANNING*/ Here it is.')])).toEqual([
      { type: 'reasoning', reasoning: 'check', reasoningKind: 'planning' },
      { type: 'text', text: 'Here it is.' },
    ]);
  });

  it('carries a tag across text blocks and keeps other blocks in place', () => {
    const call: ContentBlock = { type: 'tool_call', id: 'c1', name: 'search', args: {} };
    const native: ContentBlock = { type: 'reasoning', reasoning: 'native', signature: 'sig' };
    const out = splitPlanReActTags([native, text('/*PLANNING*/ first half'), text(' second half'), call]);
    expect(out).toEqual([
      native,
      { type: 'reasoning', reasoning: 'first half', reasoningKind: 'planning' },
      { type: 'reasoning', reasoning: 'second half', reasoningKind: 'planning' },
      call,
    ]);
    expect(out[0]).toBe(native);
  });

  it('returns the same array when nothing is tagged', () => {
    const blocks = [text('plain answer')];
    expect(splitPlanReActTags(blocks)).toBe(blocks);
  });

  it('round-trips through joinPlanReActTags', () => {
    const blocks: ContentBlock[] = [
      { type: 'reasoning', reasoning: 'plan it', reasoningKind: 'planning' },
      { type: 'reasoning', reasoning: 'new plan', reasoningKind: 'replanning' },
      { type: 'reasoning', reasoning: 'do it', reasoningKind: 'action' },
      { type: 'text', text: 'the answer' },
    ];
    const joined = joinPlanReActTags(blocks);
    expect(joined).toBe('/*PLANNING*/\nplan it\n/*REPLANNING*/\nnew plan\n/*ACTION*/\ndo it\n/*FINAL_ANSWER*/\nthe answer');
    expect(splitPlanReActTags([text(joined)])).toEqual(blocks);
  });
});

describe('planReActTags: answers', () => {
  it('keeps tool calls after reasoning in order and drops calls without a name', async () => {
    const input = deepFreeze(
      assistant(
        text('/*PLANNING*/ 1. search 2. fetch /*ACTION*/ searching'),
        { type: 'tool_call', id: 'a', name: 'search', args: { q: 'x' } },
        { type: 'tool_call', id: 'blank', name: '  ', args: {} },
        { type: 'tool_call', id: 'b', name: 'fetch', args: { url: 'u' } },
      ),
    );
    const copy = structuredClone(input);
    const out = await processResponse(input);
    expect(out.content.map((b) => (b.type === 'tool_call' ? b.id : b.type))).toEqual(['reasoning', 'reasoning', 'a', 'b']);
    expect(input).toEqual(copy);
    expect(out).not.toBe(input);
  });

  it('returns the input message itself when there is nothing to change', async () => {
    const input = deepFreeze(assistant(text('no tags'), { type: 'tool_call', id: 'a', name: 'search', args: {} }));
    expect(await processResponse(input)).toBe(input);
  });

  it('never mutates a tagged input', async () => {
    const input = deepFreeze(assistant(text('/*REASONING*/ r /*FINAL_ANSWER*/ a')));
    const copy = structuredClone(input);
    await processResponse(input);
    expect(input).toEqual(copy);
  });
});

describe('planReActTags: instruction', () => {
  const spec = { name: 'search_web', description: 'search', parameters: { type: 'object' } };

  it('names every tag and the tools it has, with no call syntax', async () => {
    const instruction = await instructionFor([spec]);
    for (const tag of Object.values(PLAN_REACT_TAGS)) expect(instruction).toContain(tag);
    expect(instruction).toContain('search_web');
    expect(instruction).not.toMatch(/```|search_web\s*\(|tool_code|print\(/);
  });

  it('invents no tools when the agent has none', async () => {
    const instruction = await instructionFor([]);
    expect(instruction).toContain('no tools');
    expect(instruction).not.toMatch(/```|\w+\(/);
  });
});

describe('planReActTags in a ReAct run', () => {
  it('stores reasoning blocks and answers with the tag-free text', async () => {
    const search = tool({ name: 'search', description: 'search', parameters: z.object({ q: z.string() }), execute: () => 'found 42' });
    const model = new ScriptedModel({
      responses: [
        assistant(text('/*PLANNING*/ 1. search'), ...callTools({ name: 'search', args: { q: 'answer' } }).content),
        '/*REASONING*/ the search said 42 /*FINAL_ANSWER*/ The answer is 42. /*FINAL_ANSWER*/',
      ],
    });
    const agent = new ReActAgent({ name: 'solver', model, tools: [search], middleware: [tags], instruction: 'Solve it.' });
    const runner = new Runner({ agent, appName: 'plan' });
    const result = await runner.run({ userId: 'u', input: 'what is the answer?' }).result();
    expect(result.status).toBe('completed');
    expect(result.output).toBe('The answer is 42.');
    const system = messageText(model.requests[0]?.messages[0]);
    expect(system.startsWith('Solve it.')).toBe(true);
    expect(system).toContain(PLAN_REACT_TAGS.finalAnswer);
    // The second request replays the processed first turn: reasoning block, then the call.
    expect(model.requests[1]?.messages[2]?.content.map((b) => b.type)).toEqual(['reasoning', 'tool_call']);
    const session = await runner.sessionStore.get({ appName: 'plan', userId: 'u', id: result.sessionId });
    const final = session?.events.find((e) => e.actions?.final);
    expect(final?.message?.content[0]).toEqual({ type: 'reasoning', reasoning: 'the search said 42', reasoningKind: 'reasoning' });
  });
});
