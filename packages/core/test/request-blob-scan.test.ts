import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InMemorySessionStore, ReActAgent, Runner, imageFromBytes, tool, type ContentBlock, type ModelRequest } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { contractImageBytes } from '../src/testing/contract/blob-cases.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const imagesOf = (request: ModelRequest | undefined): ContentBlock[] =>
  (request?.messages ?? []).flatMap((m) =>
    m.content
      .flatMap((b) => (b.type === 'tool_result' && Array.isArray(b.output) ? (b.output as ContentBlock[]) : [b]))
      .filter((b) => b.type === 'image'),
  );

describe('a request checks only its new messages for blobs', () => {
  it('a message naming a blob, added to the turn after earlier requests had none, is sent with its bytes', async () => {
    const bytes = contractImageBytes(4_000, 7);
    const store = new InMemorySessionStore();
    // No instruction: the agent's requests are its own growing list of messages, the case a cached scan must not skip.
    const keep = tool({ name: 'keep', description: 'keeps an image', parameters: z.object({}), execute: () => [imageFromBytes(bytes)] });
    const first = new ScriptedModel({ responses: [callTools({ name: 'keep' }), 'kept'] });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model: first, tools: [keep] }), appName: 'scan', sessionStore: store });
    const { sessionId } = await runner.run({ userId: 'u', input: 'keep it' }).result();
    const blob = sha256(bytes);
    // A later turn: a tool hands back the stored image by its blob id, after a request without any.
    const again = tool({
      name: 'again',
      description: 'shows the image again',
      parameters: z.object({}),
      execute: () => [{ type: 'image' as const, mediaType: 'image/png', blob, size: bytes.length }],
    });
    const second = new ScriptedModel({ responses: [callTools({ name: 'again' }), 'seen'] });
    // includeContents 'none': the first turn (and its image) is not in this run's context.
    const agent = new ReActAgent({ name: 'a', model: second, tools: [again], includeContents: 'none' });
    const later = new Runner({ agent, appName: 'scan', sessionStore: store });
    const result = await later.run({ userId: 'u', sessionId, input: 'show it again' }).result();
    expect(result.status).toBe('completed');
    expect(imagesOf(second.requests[0])).toEqual([]);
    const sent = imagesOf(second.requests[1]);
    expect(sent.length).toBeGreaterThan(0);
    for (const image of sent) {
      expect(image).not.toHaveProperty('blob');
      expect(sha256(Buffer.from((image as { data: string }).data, 'base64'))).toBe(blob);
    }
  });
});
