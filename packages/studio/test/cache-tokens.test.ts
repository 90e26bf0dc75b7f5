import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentEvent, FileSessionStore, Runner, type Session } from '@replan/core';
import { callTools, ScriptedModel, type ScriptedReply } from '@replan/core/testing';
import { createExecutor, createPlanExecuteAgent, createPlanner, createReplanner } from '@replan/planexecute';
import { describe, expect, it } from 'vitest';
import { formatSession } from '../src/cli/print-session.js';
import { runCli } from '../src/cli/run-cli.js';
import { eventView } from '../src/view/event-views.js';
import { sessionDigest } from '../src/view/session-digest.js';
import { tokens } from '../web/src/format.js';

const answer = (id: string, usage: AgentEvent['usage']): AgentEvent => ({
  id,
  invocationId: 'i1',
  author: 'executor',
  path: 'executor',
  timestamp: 1,
  message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
  ...(usage ? { usage } : {}),
});

const sessionOf = (events: AgentEvent[]): Session => ({
  id: 's1',
  appName: 'app',
  userId: 'ana',
  version: events.length,
  state: {},
  events,
});

describe('prompt-cache tokens in the studio', () => {
  const cachedCall = answer('e1', { inputTokens: 1200, outputTokens: 30, cachedTokens: 800, cacheWriteTokens: 300 });
  const plainCall = answer('e2', { inputTokens: 100, outputTokens: 5 });

  it('the session header and event details show cache writes beside cached input', () => {
    const digest = sessionDigest(sessionOf([cachedCall, plainCall]));
    expect(digest.tokens).toEqual({ input: 1300, output: 35, reasoning: 0, cached: 800, cacheWrite: 300 });
    expect(tokens(digest.tokens)).toBe(`${(1300).toLocaleString()} in · 35 out · 800 cached · 300 cache write`);
    const detail = eventView(cachedCall, 0);
    expect(detail.tokens).toMatchObject({ cached: 800, cacheWrite: 300 });
    expect(tokens(detail.tokens!)).toContain('800 cached · 300 cache write');
  });

  it('leaves cache parts out when they are zero', () => {
    expect(tokens(eventView(plainCall, 0).tokens!)).toBe('100 in · 5 out');
    expect(tokens({ input: 10, output: 1, reasoning: 0, cached: 4, cacheWrite: 0 })).toBe('10 in · 1 out · 4 cached');
  });

  it('replan show --plain prints them in the status line', () => {
    expect(formatSession(sessionOf([cachedCall, plainCall]))).toContain('tokens 1300 in / 35 out · 800 cached · 300 cache write');
    expect(formatSession(sessionOf([plainCall]))).toMatch(/tokens 100 in \/ 5 out\n/);
  });

  it('replan show (the run tree) prints them per step and in the status line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'replan-cache-'));
    try {
      const usage = { inputTokens: 100, outputTokens: 10, cachedTokens: 60, cacheWriteTokens: 30 };
      const model = (id: string, responses: readonly ScriptedReply[]) => new ScriptedModel({ id, responses, usage });
      const agent = createPlanExecuteAgent({
        planner: createPlanner({ model: model('p', [callTools({ name: 'plan', args: { steps: ['only'] } })]) }),
        executor: createExecutor({ model: model('x', ['done']) }),
        replanner: createReplanner({ model: model('r', [callTools({ name: 'respond', args: { response: 'ok' } })]) }),
      });
      const runner = new Runner({ agent, appName: 'cache-app', sessionStore: new FileSessionStore({ dir }) });
      await runner.run({ userId: 'ana', sessionId: 'cached', input: 'go' }).result();
      const lines: string[] = [];
      const code = await runCli(['show', 'cached', '--store', dir], {
        out: (t) => lines.push(t),
        err: () => {},
        stopped: Promise.resolve(),
      });
      expect(code).toBe(0);
      expect(lines.join('\n')).toMatch(/Step 1 {2}1 call · 100 in \/ 10 out · 60 cached · 30 cache write/);
      expect(lines.join('\n')).toContain('tokens 300 in / 30 out · 180 cached · 90 cache write');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
