import { createHash } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm, stat, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  FileSessionStore,
  InMemorySessionStore,
  ReActAgent,
  Runner,
  SessionCorruptError,
  agentTool,
  fileFromBytes,
  imageFromBytes,
  inlineBlobs,
  tool,
  toolResultsOf,
  type ContentBlock,
  type Message,
  type ModelRequest,
  type SessionStore,
} from '@replan/core';
import { ReplayModel, ScriptedModel, callTools, contractEvent } from '@replan/core/testing';
import { TokenEstimator } from '../src/compaction/token-estimate.js';
import { requestChars } from '../src/observe/request-size.js';
import { contractImageBytes } from '../src/testing/contract/blob-cases.js';
import { IMAGE_TOKEN_ESTIMATE } from '../src/messages/media-tokens.js';
import { estimateMediaTokens } from '../src/messages/media-tokens.js';

const dirs: string[] = [];
const freshDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'replan-media-blobs-'));
  dirs.push(dir);
  return dir;
};
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const key = (id: string) => ({ appName: 'media', userId: 'u', id });
/** The images of a request's messages (their blocks and tool results' content), as sent. */
const imagesSent = (request: ModelRequest | undefined): ContentBlock[] =>
  (request?.messages ?? []).flatMap((m) =>
    m.content
      .flatMap((b) => (b.type === 'tool_result' && Array.isArray(b.output) ? (b.output as ContentBlock[]) : [b]))
      .filter((b) => b.type === 'image'),
  );
const dataSha = (block: ContentBlock | undefined) => sha256(Buffer.from((block as { data: string }).data, 'base64'));

/** An agent that asks for approval before `look`, so a run stops with the image stored and a resume sends it again. */
function reader(model: ScriptedModel, store: SessionStore) {
  const look = tool({ name: 'look', description: 'looks closer', parameters: z.object({}), needsApproval: true, execute: () => 'looked' });
  return new Runner({ agent: new ReActAgent({ name: 'reader', model, tools: [look] }), appName: 'media', sessionStore: store });
}

const stores: [string, () => Promise<SessionStore>][] = [
  ['InMemorySessionStore', async () => new InMemorySessionStore()],
  ['FileSessionStore', async () => new FileSessionStore({ dir: await freshDir() })],
];

describe.each(stores)('images in a run on %s', (_name, makeStore) => {
  it('stores the input image as a blob, sends its bytes, and sends them again on resume', async () => {
    const store = await makeStore();
    const bytes = contractImageBytes(50_000);
    const first = new ScriptedModel({ responses: [callTools({ name: 'look', args: {} })] });
    const run = await reader(first, store)
      .run({ userId: 'u', sessionId: 's', input: [{ type: 'text', text: 'what is it?' }, imageFromBytes(bytes)] })
      .result();
    expect(run.status).toBe('interrupted');
    expect(dataSha(imagesSent(first.requests[0])[0])).toBe(sha256(bytes));

    const stored = await store.get(key('s'));
    expect(stored?.events[0]?.message?.content[1]).toEqual({ type: 'image', mediaType: 'image/png', blob: sha256(bytes), size: 50_000 });

    const second = new ScriptedModel({ responses: ['a chart'] });
    const resumed = await reader(second, store)
      .resume({ userId: 'u', sessionId: 's', approvals: { [run.interrupts[0]!.id]: true } })
      .result();
    expect(resumed.status).toBe('completed');
    const sent = imagesSent(second.requests[0]);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ type: 'image', mediaType: 'image/png' });
    expect(dataSha(sent[0])).toBe(sha256(bytes));
  });

  it('replays a run with images: fingerprints hash the blob id, so live (data) and stored (blob) requests match', async () => {
    const store = await makeStore();
    const model = new ScriptedModel({ responses: ['seen'] });
    const runner = new Runner({ agent: new ReActAgent({ name: 'reader', model }), appName: 'media', sessionStore: store });
    const input = [{ type: 'text' as const, text: 'describe' }, imageFromBytes(contractImageBytes(2_000, 9))];
    await runner.run({ userId: 'u', sessionId: 'r', input }).result();
    const session = await store.get(key('r'));
    const replay = ReplayModel.fromSession(session!, { strict: true });
    const again = new Runner({ agent: new ReActAgent({ name: 'reader', model: replay }), appName: 'media' });
    const result = await again.run({ userId: 'u', input }).result();
    expect(result.status).toBe('completed');
    expect(result.output).toBe('seen');
  });

  it('a tool that returns an image: stored as a blob in the tool result, sent to the model as bytes', async () => {
    const store = await makeStore();
    const bytes = contractImageBytes(10_000, 3);
    const shot = tool({
      name: 'shot',
      description: 'screenshot',
      parameters: z.object({}),
      execute: () => [{ type: 'text' as const, text: 'the page' }, imageFromBytes(bytes)],
    });
    const model = new ScriptedModel({ responses: [callTools({ name: 'shot', args: {} }), 'done'] });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model, tools: [shot] }), appName: 'media', sessionStore: store });
    await runner.run({ userId: 'u', sessionId: 't', input: 'look' }).result();
    expect(dataSha(imagesSent(model.requests[1])[0])).toBe(sha256(bytes));
    const results = (await store.get(key('t')))?.events.flatMap((e) => toolResultsOf(e.message));
    expect(results?.[0]?.output).toEqual([
      { type: 'text', text: 'the page' },
      { type: 'image', mediaType: 'image/png', blob: sha256(bytes), size: 10_000 },
    ]);
  });

  it('an agent tool whose answer carries an image gives the caller content blocks, the image stored in the caller session', async () => {
    const store = await makeStore();
    const bytes = contractImageBytes(4_000, 4);
    const drawer = new ReActAgent({
      name: 'drawer',
      description: 'draws',
      model: new ScriptedModel({
        responses: [
          { message: { role: 'assistant', content: [{ type: 'text', text: 'here' }, imageFromBytes(bytes)] }, finishReason: 'stop' },
        ],
      }),
    });
    const outer = new ScriptedModel({ responses: [callTools({ name: 'drawer', args: { input: 'a cat' } }), 'sent'] });
    const runner = new Runner({
      agent: new ReActAgent({ name: 'root', model: outer, tools: [agentTool(drawer)] }),
      appName: 'media',
      sessionStore: store,
    });
    expect((await runner.run({ userId: 'u', sessionId: 'o', input: 'draw' }).result()).status).toBe('completed');
    const [result] = (await store.get(key('o')))?.events.flatMap((e) => toolResultsOf(e.message)) ?? [];
    expect(result?.output).toEqual([
      { type: 'text', text: 'here' },
      { type: 'image', mediaType: 'image/png', blob: sha256(bytes), size: 4_000 },
    ]);
    expect(sha256(await store.readBlob!(key('o'), sha256(bytes)))).toBe(sha256(bytes));
    expect(dataSha(imagesSent(outer.requests[1])[0])).toBe(sha256(bytes));
  });
});

describe('blobs in the file store', () => {
  it('keeps a 2 MB image out of the log, flushed to blobs/<sha256> beside it, and deletes it with the session', async () => {
    const store = new FileSessionStore({ dir: await freshDir() });
    const bytes = contractImageBytes(2 * 1024 * 1024, 5);
    const model = new ScriptedModel({ responses: ['ok'] });
    await new Runner({ agent: new ReActAgent({ name: 'a', model }), appName: 'media', sessionStore: store })
      .run({ userId: 'u', sessionId: 'big', input: [imageFromBytes(bytes)] })
      .result();
    const userDir = join(store.dir, 'sessions', 'media', 'u');
    expect((await stat(join(userDir, 'big.jsonl'))).size).toBeLessThan(8_000);
    const blob = join(userDir, 'big.blobs', sha256(bytes));
    expect(sha256(await readFile(blob))).toBe(sha256(bytes));
    await store.delete(key('big'));
    // The log and its blobs are gone (the lease file stays, as for any deleted session).
    expect((await readdir(userDir)).filter((name) => !name.endsWith('.lease'))).toEqual([]);
  });

  it('writes no blob for an append refused by its lease, nor for the loser of two appends at one version', async () => {
    const store = new FileSessionStore({ dir: await freshDir() });
    const blobDir = join(store.dir, 'sessions', 'media', 'u', 'refused.blobs');
    const files = async () => (await readdir(blobDir).catch(() => [])).filter((name) => /^[0-9a-f]{64}$/.test(name)).sort();
    const withImage = (seed: number) =>
      contractEvent('image', { message: { role: 'user', content: [imageFromBytes(contractImageBytes(2_000, seed))] } });
    await store.create(key('refused'));
    const old = await store.acquireLease(key('refused'), { owner: 'old', ttlMs: 10_000 });
    await store.releaseLease(key('refused'), old);
    await store.acquireLease(key('refused'), { owner: 'new', ttlMs: 10_000 });
    const leased = await store.appendEvents(key('refused'), [withImage(20)], { expectedVersion: 0, lease: old }).catch((e: Error) => e);
    expect((leased as Error).name).toBe('LeaseLostError');
    expect(await files()).toEqual([]);
    // Both arrive while neither is written: one group, one winner, and only its image is kept.
    const both = await Promise.allSettled(
      [20, 21].map((seed) => store.appendEvents(key('refused'), [withImage(seed)], { expectedVersion: 0 })),
    );
    const won = both.findIndex((r) => r.status === 'fulfilled');
    expect(both.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((both[1 - won] as PromiseRejectedResult).reason.name).toBe('ConcurrentUpdateError');
    expect(await files()).toEqual([sha256(contractImageBytes(2_000, 20 + won))]);
    await store.close();
  });

  it('fails a resume whose blob is gone with SessionCorruptError naming it', async () => {
    const store = new FileSessionStore({ dir: await freshDir() });
    const bytes = contractImageBytes(1_000, 6);
    const first = new ScriptedModel({ responses: [callTools({ name: 'look', args: {} })] });
    const run = await reader(first, store)
      .run({ userId: 'u', sessionId: 'gone', input: [imageFromBytes(bytes)] })
      .result();
    await unlink(join(store.dir, 'sessions', 'media', 'u', 'gone.blobs', sha256(bytes)));
    const second = new ScriptedModel({ responses: ['never'] });
    const resumed = await reader(second, store)
      .resume({ userId: 'u', sessionId: 'gone', approvals: { [run.interrupts[0]!.id]: true } })
      .result();
    expect(resumed.status).toBe('failed');
    expect(resumed.error).toBeInstanceOf(SessionCorruptError);
    expect(resumed.error?.message).toContain(sha256(bytes));
    expect(second.requests).toHaveLength(0);
  });

  it('loads a session written by the previous format (schemaVersion 1, no blobs) and appends images to it', async () => {
    const dir = await freshDir();
    await cp(new URL('./fixtures/file-store-v1', import.meta.url), dir, { recursive: true });
    const store = new FileSessionStore({ dir });
    const old = { appName: 'app', userId: 'u1', id: 'old' };
    const session = await store.get(old);
    expect(session?.events.map((e) => e.id)).toEqual(['ev-1', 'ev-2']);
    expect(session?.state).toEqual({ topic: 'invoices', total: 42 });
    const bytes = contractImageBytes(300, 7);
    const event = {
      id: 'ev-3',
      invocationId: 'inv-2',
      author: 'user',
      path: 'user',
      timestamp: 1,
      message: { role: 'user' as const, content: [fileFromBytes(bytes, { mediaType: 'image/png', filename: 'scan.png' })] },
    };
    await store.appendEvents(old, [event], { expectedVersion: 2 });
    const again = await new FileSessionStore({ dir }).get(old);
    expect(again?.version).toBe(3);
    expect(again?.events[2]?.message?.content[0]).toEqual({
      type: 'file',
      mediaType: 'image/png',
      filename: 'scan.png',
      blob: sha256(bytes),
      size: 300,
    });
  });
});

describe('media token estimates', () => {
  const big = imageFromBytes(contractImageBytes(2 * 1024 * 1024, 8));
  const withImage: Message = { role: 'user', content: [{ type: 'text', text: 'what is it?' }, big] };

  it('count an image as IMAGE_TOKEN_ESTIMATE, never by its base64 length, in compaction and in budgets', () => {
    expect(estimateMediaTokens(big)).toBe(IMAGE_TOKEN_ESTIMATE);
    expect(estimateMediaTokens({ ...big, detail: 'low' })).toBe(85);
    const tokens = new TokenEstimator().message(withImage);
    expect(tokens).toBeGreaterThan(IMAGE_TOKEN_ESTIMATE);
    expect(tokens).toBeLessThan(IMAGE_TOKEN_ESTIMATE + 50);
    const inToolResult: Message = { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'c', name: 'shot', output: [big] }] };
    expect(new TokenEstimator().message(inToolResult)).toBeLessThan(IMAGE_TOKEN_ESTIMATE + 50);
    expect(requestChars({ messages: [withImage, inToolResult] })).toBeLessThan(4 * (2 * IMAGE_TOKEN_ESTIMATE + 50));
  });

  it('count a file by its size: a byte in four for text, one in 32 for a PDF', () => {
    expect(estimateMediaTokens(fileFromBytes(Buffer.alloc(4_000, 97), { mediaType: 'text/csv' }))).toBe(1_000);
    expect(estimateMediaTokens(fileFromBytes(Buffer.alloc(64_000), { mediaType: 'application/pdf' }))).toBe(2_000);
  });
});

describe('inlineBlobs', () => {
  it('returns the same messages when none names a blob, and reads each blob once with a cache', async () => {
    const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }];
    let reads = 0;
    const read = async () => (reads++, new Uint8Array([1, 2, 3]));
    expect(await inlineBlobs(messages, read)).toBe(messages);
    const blob = { type: 'image' as const, mediaType: 'image/png', blob: 'a'.repeat(64), size: 3 };
    const named: Message[] = [{ role: 'user', content: [blob, blob] }];
    const cache = new Map<string, string>();
    const inline = await inlineBlobs(named, read, cache);
    await inlineBlobs(named, read, cache);
    expect(inline[0]?.content).toEqual([
      { type: 'image', mediaType: 'image/png', data: 'AQID' },
      { type: 'image', mediaType: 'image/png', data: 'AQID' },
    ]);
    expect(reads).toBe(1);
  });
});
