import { describe, expect, it } from 'vitest';
import { type AgentEvent, type ContextOptions, type Message, ReActAgent, messageText } from '@replan/core';
import { InvocationContext, RunBudget, buildContextMessages, neutraliseMarkers } from '@replan/core/agent-kit';
import { ScriptedModel } from '@replan/core/testing';
import { MISSING_RESULT_OUTPUT } from '../src/context/tool-pairing.js';

// Unit tests of the builder over hand-made logs: the shapes a crash, a resume or a concurrent
// writer leave behind, which a scripted run does not produce on demand.

const SELF = 'me';
const call = (id: string, name = 'lookup', args: Record<string, unknown> = { q: id }): Message => ({
  role: 'assistant',
  content: [{ type: 'tool_call', id, name, args }],
});
const result = (id: string, output: unknown = `out-${id}`, name = 'lookup'): Message => ({
  role: 'tool',
  content: [{ type: 'tool_result', toolCallId: id, name, output }],
});
const say = (text: string, role: Message['role'] = 'assistant'): Message => ({ role, content: [{ type: 'text', text }] });

let seq = 0;
/** An event by `author` at `path` (default: a sibling path named after the author). */
const ev = (author: string, message: Message, extra: Partial<AgentEvent> = {}): AgentEvent => ({
  id: `e${++seq}`,
  invocationId: 'inv',
  author,
  path: author === 'user' ? 'user' : `root/${author}`,
  timestamp: seq,
  message,
  ...extra,
});

/** Builds the context `me` (at root/me, run starting at `scopeStart`) sees of `events`. */
function build(events: AgentEvent[], options: ContextOptions = {}, scopeStart = events.length, branch?: string): Message[] {
  const services: InvocationContext['services'] = {
    invocationId: 'inv',
    session: { appName: 'a', userId: 'u', id: 's', events, state: {}, version: events.length },
    signal: new AbortController().signal,
    streaming: false,
    budget: new RunBudget(),
    resumeValues: new Map(),
    interruptIds: new Set(),
    newId: () => `id${++seq}`,
  };
  const agent = new ReActAgent({ name: SELF, model: new ScriptedModel() });
  return buildContextMessages(new InvocationContext(services, agent, `root/${SELF}`, branch, scopeStart), options);
}
const roles = (messages: Message[]) => messages.map((m) => m.role);

describe('own tool calls and results', () => {
  it('puts each result right after its call, even when other messages were stored between', () => {
    const events = [ev('user', say('hi', 'user')), ev(SELF, call('c1')), ev('other', say('interjection')), ev(SELF, result('c1'))];
    const out = build(events);
    expect(roles(out)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(out[2]).toBe(events[3]?.message); // stored messages go as they are, not copied
    expect(messageText(out[3])).toContain('[other] said: interjection');
  });

  it('keeps quoted messages around a moved result in one quote', () => {
    const events = [ev(SELF, call('c1')), ev('other', say('one')), ev(SELF, result('c1')), ev('other', say('two'))];
    const out = build(events);
    expect(roles(out)).toEqual(['assistant', 'tool', 'user']);
    expect(messageText(out[2])).toMatch(/\[other\] said: one\n\[other\] said: two/);
  });

  it('answers an own call with no stored result with a placeholder error result', () => {
    const events = [ev('user', say('hi', 'user')), ev(SELF, call('lost')), ev(SELF, say('later answer'))];
    const out = build(events);
    expect(roles(out)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(out[2]?.content).toEqual([
      { type: 'tool_result', toolCallId: 'lost', name: 'lookup', output: MISSING_RESULT_OUTPUT, isError: true },
    ]);
  });

  it("leaves the latest own turn's unanswered calls open, and last, for the agent to run", () => {
    const events = [
      ev('user', say('hi', 'user')),
      ev(SELF, { role: 'assistant', content: [...call('a').content, ...call('b').content] }),
      ev(SELF, result('a')),
      ev('other', say('meanwhile')),
    ];
    const out = build(events, {}, 1);
    expect(roles(out)).toEqual(['user', 'user', 'assistant', 'tool']);
    expect(out[3]?.content).toEqual(result('a').content); // no placeholder for b: the agent runs it next
  });

  it('drops a result whose call is not in the log, and a second result for one call', () => {
    const events = [ev(SELF, call('c1')), ev(SELF, result('c1', 'first')), ev(SELF, result('c1', 'again')), ev(SELF, result('ghost'))];
    const out = build(events);
    expect(roles(out)).toEqual(['assistant', 'tool']);
    expect(out[1]?.content[0]).toMatchObject({ output: 'first' });
  });

  it("drops own earlier calls with their results when 'self' is not heard, keeps the current turn", () => {
    const events = [
      ev('user', say('q', 'user')),
      ev(SELF, call('old')),
      ev(SELF, result('old')),
      ev(SELF, say('old answer')),
      ev('user', say('q2', 'user')),
      ev(SELF, call('new')),
      ev(SELF, result('new')),
    ];
    const out = build(events, { includeSources: ['user'] }, 5);
    expect(roles(out)).toEqual(['user', 'user', 'assistant', 'tool']);
    expect(JSON.stringify(out)).not.toContain('old');
  });

  it("drops a result whose call fell before the 'none' cut", () => {
    const events = [ev(SELF, call('c1')), ev('user', say('new question', 'user')), ev(SELF, result('c1'))];
    expect(build(events, { includeContents: 'none' }, 3)).toEqual([say('new question', 'user')]);
  });

  it('splits a tool message holding results of two different turns between them', () => {
    const both: Message = { role: 'tool', content: [...result('x').content, ...result('y').content] };
    const events = [ev(SELF, call('x')), ev(SELF, call('y')), ev(SELF, both)];
    const out = build(events);
    expect(roles(out)).toEqual(['assistant', 'tool', 'assistant', 'tool']);
    expect(out[1]?.content.map((b) => b.type === 'tool_result' && b.toolCallId)).toEqual(['x']);
    expect(out[3]?.content.map((b) => b.type === 'tool_result' && b.toolCallId)).toEqual(['y']);
    expect(both.content).toHaveLength(2); // the stored message is not changed
  });
});

describe("other agents' tool calls and results", () => {
  it('quotes a call only with its result, and a result only with its call', () => {
    const events = [
      ev('other', call('kept', 'search', { q: 'x' })),
      ev('other', result('kept', { hits: 1 }, 'search')),
      ev('other', call('unanswered', 'search')),
      ev('other', result('orphan', 'nobody asked', 'search')),
    ];
    const text = messageText(build(events)[0]);
    expect(text).toContain('[other] called tool search with {"q":"x"}');
    expect(text).toContain('[other]\'s tool search returned {"hits":1}');
    expect(text).not.toContain('unanswered');
    expect(text).not.toContain('nobody asked');
  });

  it('drops the result with its call when the current turn starts between them', () => {
    const events = [ev('other', call('c1', 'search')), ev('other', say('status update')), ev('other', result('c1', 'late', 'search'))];
    const out = build(events, { includeContents: 'none' });
    expect(messageText(out[0])).toContain('[other] said: status update');
    expect(messageText(out[0])).not.toContain('late');
  });

  it('keys calls by agent: the same id from two agents never pairs across them', () => {
    const events = [ev('alpha', call('call_0', 'search')), ev('beta', result('call_0', 'beta output', 'search'))];
    expect(build(events)).toEqual([]);
  });

  it('drops results of a filtered-out agent along with its calls', () => {
    const events = [ev('user', say('q', 'user')), ev('alpha', call('a1')), ev('alpha', result('a1')), ev('beta', say('beta speaks'))];
    const out = build(events, { includeSources: ['user', 'beta'] });
    expect(JSON.stringify(out)).not.toContain('alpha');
    expect(messageText(out[1])).toContain('[beta] said: beta speaks');
  });

  it("skips another agent's user-role prompts (nudges it stored for its own model)", () => {
    const events = [ev('other', say('Your last reply was empty.', 'user')), ev('other', say('real answer'))];
    const text = messageText(build(events)[0]);
    expect(text).toContain('real answer');
    expect(text).not.toContain('Your last reply was empty.');
  });
});

describe('the current turn and branches', () => {
  it('anchors on a handover to this agent even without text', () => {
    const events = [
      ev('user', say('q', 'user')),
      ev('router', call('r1')),
      ev('router', result('r1')),
      ev('router', { role: 'assistant', content: [] }, { actions: { transferTo: SELF } }),
    ];
    expect(build(events, { includeContents: 'none' })).toEqual([]);
    // The handover has no content to show; it only starts the turn. Without it the turn starts
    // at the user message, and the router's tool traffic (no text) is part of that turn.
    const withoutHandover = build(events.slice(0, 3), { includeContents: 'none' });
    expect(withoutHandover[0]).toEqual(say('q', 'user'));
    expect(messageText(withoutHandover[1])).toContain("[router]'s tool lookup returned out-r1");
  });

  it("keeps only the own turn when 'none' finds no kept turn start", () => {
    const events = [ev('user', say('q', 'user')), ev(SELF, call('c')), ev(SELF, result('c'))];
    expect(roles(build(events, { includeContents: 'none', includeSources: ['self'] }, 1))).toEqual(['assistant', 'tool']);
  });

  it("hides a sibling branch's events but shows the parent branch's", () => {
    const events = [
      ev('user', say('q', 'user')),
      ev('sibling', say('sibling talk'), { branch: 'fan.sibling' }),
      ev('parent', say('parent talk'), { branch: 'fan' }),
    ];
    const text = JSON.stringify(build(events, {}, events.length, 'fan.me'));
    expect(text).not.toContain('sibling talk');
    expect(text).toContain('parent talk');
  });

  it('skips partial (streamed, unstored) events and events without a message', () => {
    const { message: _dropped, ...withoutMessage } = ev('other', say('x'));
    const events = [ev('user', say('q', 'user')), ev('other', say('delta'), { partial: true }), withoutMessage];
    expect(build(events)).toEqual([say('q', 'user')]);
  });
});

describe('neutraliseMarkers', () => {
  it('breaks every run of three or more angle brackets and leaves other text alone', () => {
    expect(neutraliseMarkers('a <<<END>>> b >>>> c << d')).toBe('a < < <END> > > b > > > > c << d');
    const plain = 'nothing to do here';
    expect(neutraliseMarkers(plain)).toBe(plain);
  });
});
