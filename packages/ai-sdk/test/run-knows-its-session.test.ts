import { describe, expect, it } from 'vitest';
import { createUIMessageStreamResponse, resumeUIMessageStream, toUIMessageStream } from '../src/index.js';
import { collect, tripRunner } from './support/trip-run.js';

describe('a run streamed with no session argument', () => {
  it('toUIMessageStream(run) uses the run own session: the same chunks and ids a replay of its session gives', async () => {
    const { runner, store } = tripRunner();
    const run = runner.run({ userId: 'ana', input: 'Book' });
    const live = await collect(toUIMessageStream(run));
    const replay = await collect(resumeUIMessageStream({ store, appName: 'trips', userId: 'ana', sessionId: run.sessionId }));
    const stored = (chunks: typeof live) => chunks.filter((c) => /\.\d+$/.test(c.id ?? ''));
    expect(stored(live).length).toBeGreaterThan(3);
    expect(stored(replay)).toEqual(stored(live));
  });

  it('createUIMessageStreamResponse(run) takes the run alone, and still takes status and headers', async () => {
    const { runner } = tripRunner();
    const run = runner.run({ userId: 'ana', input: 'Book' });
    const response = createUIMessageStreamResponse(run, { status: 201, headers: { 'x-session': run.sessionId } });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-session')).toBe(run.sessionId);
    const body = await response.text();
    expect(body).toContain(`"type":"finish"`);
  });
});
