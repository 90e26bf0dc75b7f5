import { describe, expect, it } from 'vitest';
import { type AgentEvent, ReActAgent, ReplayError, Runner, type Session } from '@replan/core';
import { ReplayModel, ScriptedModel, callTools, checkRecording, replayTools } from '@replan/core/testing';

/** A small valid recording: the user's input, a tool call, its result, the answer. */
async function recording(): Promise<AgentEvent[]> {
  const model = new ScriptedModel({ responses: [callTools({ name: 'missing_tool', args: {} }), 'done'] });
  const runner = new Runner({ agent: new ReActAgent({ name: 'shop', model }), appName: 'app' });
  const result = await runner.run({ userId: 'u', sessionId: 's', input: 'go' }).result();
  const session = (await runner.sessionStore.get({ appName: 'app', userId: 'u', id: result.sessionId })) as Session;
  return JSON.parse(JSON.stringify(session.events)) as AgentEvent[];
}

/** A copy of `events` with event `index` changed by `edit`. */
function damaged(events: readonly AgentEvent[], index: number, edit: (event: Record<string, unknown>) => void): AgentEvent[] {
  const copy = JSON.parse(JSON.stringify(events)) as Record<string, unknown>[];
  edit(copy[index] as Record<string, unknown>);
  return copy as unknown as AgentEvent[];
}

/** Every replay entry point, on one recording: each must refuse it the same way. */
const readers: [string, (events: readonly AgentEvent[]) => unknown][] = [
  ['ReplayModel.fromSession', (events) => ReplayModel.fromSession(events)],
  ['replayTools', (events) => replayTools(events, [])],
  ['checkRecording', (events) => checkRecording({ events })],
];

function refusal(read: () => unknown): ReplayError {
  try {
    read();
  } catch (error) {
    expect(error).toMatchObject({ name: 'ReplayError', kind: 'recording' });
    expect(error).toBeInstanceOf(ReplayError);
    return error as ReplayError;
  }
  throw new Error('the recording was accepted');
}

describe('a corrupt recording is refused up front, naming the event', () => {
  it('a valid recording passes every reader', async () => {
    const events = await recording();
    expect(checkRecording(events)).toHaveLength(events.length);
    for (const [, read] of readers) expect(() => read(events)).not.toThrow();
  });

  it.each(readers)('%s: a message whose content is null (was a TypeError in the replayed run)', async (_name, read) => {
    const events = await recording();
    const index = events.findIndex((e) => e.message?.role === 'assistant');
    const error = refusal(() => read(damaged(events, index, (e) => ((e.message as Record<string, unknown>).content = null))));
    expect(error.eventIndex).toBe(index);
    expect(error.eventId).toBe(events[index]?.id);
    expect(error.message).toContain(`event ${index} (id "${events[index]?.id}") is not a valid event: message.content:`);
    expect(error.message).toMatch(/expected array, received null/);
    expect(error.message).toContain('Record the session again');
  });

  it.each(readers)('%s: a tool call without a name (was "Cannot read properties of undefined")', async (_name, read) => {
    const events = await recording();
    const index = events.findIndex((e) => e.message?.content.some((b) => b.type === 'tool_call'));
    const error = refusal(() =>
      read(
        damaged(events, index, (e) => {
          const content = (e.message as { content: Record<string, unknown>[] }).content;
          delete (content.find((b) => b.type === 'tool_call') as Record<string, unknown>).name;
        }),
      ),
    );
    expect(error.eventIndex).toBe(index);
    expect(error.message).toMatch(/message\.content\.\d+\.name: .*expected string, received undefined/);
  });

  it('wrong types: a string timestamp, tool-call args that are no object, an unknown block, an event that is null', async () => {
    const events = await recording();
    const call = events.findIndex((e) => e.message?.content.some((b) => b.type === 'tool_call'));
    expect(refusal(() => checkRecording(damaged(events, 0, (e) => (e.timestamp = 'yesterday')))).message).toMatch(
      /event 0 .*timestamp: .*expected number, received string/,
    );
    const args = refusal(() =>
      checkRecording(
        damaged(events, call, (e) => {
          const content = (e.message as { content: Record<string, unknown>[] }).content;
          (content.find((b) => b.type === 'tool_call') as Record<string, unknown>).args = '{"a":1}';
        }),
      ),
    );
    expect(args.message).toMatch(/message\.content\.\d+\.args: .*expected record, received string/);
    const unknownBlock = refusal(() =>
      checkRecording(damaged(events, 0, (e) => ((e.message as Record<string, unknown>).content = [{ type: 'video' }]))),
    );
    expect(unknownBlock.message).toMatch(/event 0 .*message\.content\.0\.type/);
    const nullEvent = refusal(() => checkRecording([events[0], null, events[1]] as unknown as AgentEvent[]));
    expect(nullEvent.eventIndex).toBe(1);
    expect(nullEvent.eventId).toBeUndefined();
    expect(nullEvent.message).toMatch(/event 1 is not a valid event: \(the event\): .*expected object, received null/);
  });

  it('a recording that is no list of events, and a malformed meta.request, are the same typed error', async () => {
    expect(refusal(() => ReplayModel.fromSession({} as Session)).message).toMatch(/must be a session/);
    expect(refusal(() => ReplayModel.fromSession(null as unknown as Session)).message).toMatch(/must be a session/);
    const events = await recording();
    const stamped = events.findIndex((e) => e.meta?.request);
    const error = refusal(() =>
      checkRecording(damaged(events, stamped, (e) => ((e.meta as Record<string, unknown>).request = { parts: 1 }))),
    );
    expect(error.eventId).toBe(events[stamped]?.id);
    expect(error.message).toMatch(/malformed meta\.request/);
  });

  it('partial (streaming) events are left out unchecked: they are never stored', async () => {
    const events = await recording();
    const partial = { partial: true, message: { role: 'assistant', content: null } } as unknown as AgentEvent;
    expect(checkRecording([...events, partial])).toHaveLength(events.length);
  });
});
