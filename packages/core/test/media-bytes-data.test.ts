import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InMemorySessionStore, ReActAgent, Runner, tool, toolResultsOf } from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 255]);
const BASE64 = Buffer.from(PNG).toString('base64');

describe('an image built by hand with its bytes as data', () => {
  it('is taken as a run input (Uint8Array or Buffer) and sent as base64, kept as a blob', async () => {
    const model = new ScriptedModel({ responses: ['a red dot', 'again'] });
    const store = new InMemorySessionStore();
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model }), appName: 'app', sessionStore: store });
    const first = await runner
      .run({
        userId: 'u',
        sessionId: 's',
        input: [
          { type: 'text', text: 'what is it?' },
          { type: 'image', mediaType: 'image/png', data: PNG },
        ],
      })
      .result();
    expect(first.status).toBe('completed');
    const image = model.requests[0]?.messages[0]?.content[1];
    expect(image).toMatchObject({ type: 'image', mediaType: 'image/png', data: BASE64 });
    const stored = (await store.get({ appName: 'app', userId: 'u', id: 's' }))?.events[0]?.message?.content[1];
    expect(stored).toMatchObject({ type: 'image', blob: expect.stringMatching(/^[0-9a-f]{64}$/), size: PNG.length });
    const second = await runner
      .run({
        userId: 'u',
        sessionId: 's',
        input: { role: 'user', content: [{ type: 'file', mediaType: 'image/png', filename: 'dot.png', data: Buffer.from(PNG) } as never] },
      })
      .result();
    expect(second.status).toBe('completed');
  });

  it('is taken as a tool output: the model reads the image, stored as base64 data', async () => {
    const snapshot = tool({
      name: 'snapshot',
      description: 'Takes a picture.',
      parameters: z.object({}),
      execute: () => [
        { type: 'text', text: 'here' },
        { type: 'image', mediaType: 'image/png', data: Buffer.from(PNG) },
      ],
    });
    const model = new ScriptedModel({ responses: [callTools({ name: 'snapshot' }), 'seen'] });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model, tools: [snapshot] }), appName: 'app' });
    expect((await runner.run({ userId: 'u', input: 'look' }).result()).status).toBe('completed');
    const result = model.requests[1]?.messages.flatMap((m) => toolResultsOf(m))[0];
    expect(result?.isError).toBeUndefined();
    expect(result?.output).toEqual([
      { type: 'text', text: 'here' },
      { type: 'image', mediaType: 'image/png', data: BASE64 },
    ]);
  });
});
