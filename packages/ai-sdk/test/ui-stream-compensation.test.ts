import { InMemorySessionStore, ReActAgent, Runner } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { describe, expect, it } from 'vitest';
import { resumeUIMessageStream, toUIMessageStream } from '../src/index.js';
import { collect, readMessage } from './support/trip-run.js';
import { flightBooking, payTool } from '../../core/test/support/bookings.js';

const user = { userId: 'ana', sessionId: 'trip-1' };

/** Books a flight, then waits (its next model call) until the run is aborted. */
function bookingRunner() {
  let reached!: () => void;
  const waiting = new Promise<void>((resolve) => {
    reached = resolve;
  });
  const model = new ScriptedModel({
    respond: async (_request, call) => {
      if (call === 0) return callTools({ name: 'book_flight', id: 'f1', args: { what: 'LHR' } });
      reached();
      return await new Promise<never>(() => undefined);
    },
  });
  const agent = new ReActAgent({ name: 'travel', model, tools: [flightBooking] });
  return { runner: new Runner({ agent, appName: 'trips', sessionStore: new InMemorySessionStore() }), waiting };
}

describe('UI message stream of a run whose calls are undone', () => {
  it('a compensation is a data-compensation part beside the call it undoes, not a second call of the tool; a reload shows the same', async () => {
    const { runner, waiting } = bookingRunner();
    const run = runner.run({ ...user, input: 'Book me a flight' });
    const chunks = collect(toUIMessageStream(run, { runner, ...user }));
    await waiting;
    run.abort({ compensate: true });
    const live = await chunks;
    // Streamed as it happens: running first, then done, in the same part.
    expect(
      live
        .map((c) => c.chunk)
        .filter((c) => c.type === 'data-compensation')
        .map((c) => (c as { data: { status: string } }).data.status),
    ).toEqual(['running', 'done']);

    const message = await readMessage(live.map((c) => c.chunk));
    const tools = message.parts.filter((p) => p.type === 'dynamic-tool' || p.type.startsWith('tool-'));
    expect(tools).toHaveLength(1);
    expect(tools[0]).toMatchObject({ toolCallId: 'f1', toolName: 'book_flight', state: 'output-available', output: { ref: 'flight-LHR' } });
    const compensations = message.parts.filter((p) => p.type === 'data-compensation');
    expect(compensations).toEqual([
      {
        type: 'data-compensation',
        id: 'compensation-f1',
        data: { callId: 'f1', tool: 'book_flight', status: 'done', output: { cancelled: 'flight-LHR' } },
      },
    ]);
    const replay = await readMessage((await collect(resumeUIMessageStream({ runner, ...user }))).map((c) => c.chunk));
    expect(replay.parts).toEqual(message.parts);
  });

  it('a stopped session cancelled with compensate: the undone call done, the call that waited for approval skipped', async () => {
    const model = new ScriptedModel({
      responses: [callTools({ name: 'book_flight', id: 'f1', args: { what: 'LHR' } }, { name: 'pay', id: 'p1', args: {} })],
    });
    const runner = new Runner({ agent: new ReActAgent({ name: 'travel', model, tools: [flightBooking, payTool] }), appName: 'trips' });
    expect((await runner.run({ ...user, input: 'Book and pay' }).result()).status).toBe('interrupted');
    expect((await runner.cancel({ ...user, compensate: true }).result()).compensation?.skipped).toEqual([{ callId: 'p1', tool: 'pay' }]);
    const message = await readMessage((await collect(resumeUIMessageStream({ runner, ...user }))).map((c) => c.chunk));
    expect(message.parts.filter((p) => p.type === 'data-compensation').map((p) => (p as { data: unknown }).data)).toEqual([
      { callId: 'f1', tool: 'book_flight', status: 'done', output: { cancelled: 'flight-LHR' } },
      { callId: 'p1', tool: 'pay', status: 'skipped' },
    ]);
    // Two tool parts, one per call the model made: no compensation among them.
    expect(message.parts.filter((p) => p.type === 'dynamic-tool').map((p) => (p as { toolCallId: string }).toolCallId)).toEqual([
      'f1',
      'p1',
    ]);
  });
});
