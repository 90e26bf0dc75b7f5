import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FileSessionStore, ReActAgent, Runner, tool } from '@replan/core';
import { ScriptedModel, callTools, type ScriptedReply } from '@replan/core/testing';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('FileSessionStore with the Runner', () => {
  it('stores a real run that a fresh store and runner resume after an approval interrupt', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'replan-file-runner-'));
    dirs.push(dir);
    const ran: number[] = [];
    const add = tool({
      name: 'add',
      description: 'add',
      parameters: z.object({ a: z.number(), b: z.number() }),
      needsApproval: true,
      execute: ({ a, b }) => {
        ran.push(a + b);
        return a + b;
      },
    });
    const build = (...responses: ScriptedReply[]) => {
      const model = new ScriptedModel({ responses });
      const agent = new ReActAgent({ name: 'calc', model, tools: [add] });
      return new Runner({ agent, appName: 'app', sessionStore: new FileSessionStore({ dir }) });
    };
    const first = await build(callTools({ name: 'add', args: { a: 1, b: 2 } }))
      .run({ userId: 'u', input: 'what is 1+2?', state: { 'user:lang': 'en' } })
      .result();
    expect(first.status).toBe('interrupted');
    expect(ran).toEqual([]);

    // A new store instance over the same directory stands in for another process.
    const second = build('It is 3.');
    const resumed = await second.resume({ userId: 'u', sessionId: first.sessionId, values: { [first.interrupts[0]!.id]: true } }).result();
    expect(resumed.status).toBe('completed');
    expect(resumed.output).toBe('It is 3.');
    expect(ran).toEqual([3]);
    const session = await new FileSessionStore({ dir }).get({ appName: 'app', userId: 'u', id: first.sessionId });
    expect(session?.state['user:lang']).toBe('en');
    expect(session?.events.some((e) => e.actions?.interrupt)).toBe(true);
  });
});
