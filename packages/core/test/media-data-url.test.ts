import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type AgentEvent, InMemorySessionStore, ReActAgent, Runner } from '@replan/core';
import { contractEvent, ScriptedModel } from '@replan/core/testing';

/** Deterministic bytes behind a PNG signature. */
const contractImageBytes = (size: number) => {
  const bytes = Buffer.alloc(size, 7);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
  return bytes;
};
const key = { appName: 'media', userId: 'u', id: 's' };
const dataUrl = (bytes: Uint8Array) => `data:image/png;base64,${Buffer.from(bytes).toString('base64')}`;
const withImage = (url: string): AgentEvent =>
  contractEvent('look', {
    message: {
      role: 'user',
      content: [
        { type: 'text', text: 'look' },
        { type: 'image', mediaType: 'image/png', url },
      ],
    },
  });

describe('a data: URL is inline bytes: validated, limited and stored as a blob like data', () => {
  it('stores a data: URL image as a blob, not inline in the log', async () => {
    const bytes = contractImageBytes(3000);
    const store = new InMemorySessionStore();
    await store.create(key, [withImage(dataUrl(bytes))]);
    const block = (await store.get(key))?.events[0]?.message?.content[1];
    const id = createHash('sha256').update(bytes).digest('hex');
    expect(block).toEqual({ type: 'image', mediaType: 'image/png', blob: id, size: 3000 });
    expect(Buffer.from(await store.readBlob(key, id)).equals(bytes)).toBe(true);
  });

  it('refuses a data: URL over maxBlobBytes with a BlobLimitError (scope blob), nothing written', async () => {
    const store = new InMemorySessionStore({ maxBlobBytes: 1024 * 1024 });
    const error = await store.create(key, [withImage(dataUrl(contractImageBytes(2 * 1024 * 1024)))]).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'BlobLimitError', scope: 'blob' });
    expect(await store.get(key)).toBeUndefined();
  });

  it('refuses a data: URL whose payload is not base64, in a store and as a run input (InvalidMediaError)', async () => {
    const store = new InMemorySessionStore();
    const stored = await store.create(key, [withImage('data:image/png;base64,!!!')]).catch((e: unknown) => e);
    expect((stored as Error).name).toBe('InvalidMediaError');
    expect((stored as Error).message).toContain('a data: URL must be data:<media type>;base64,');

    const model = new ScriptedModel({ responses: ['seen'] });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model }), appName: 'media' });
    const input = {
      role: 'user' as const,
      content: [{ type: 'image' as const, mediaType: 'image/png', url: 'data:image/png;base64,!!!' }],
    };
    await expect(runner.run({ userId: 'u', input }).result()).rejects.toThrow(/a data: URL must be/);
    expect(model.requests).toHaveLength(0);
  });
});
