import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSessionStore, imageFromBytes, ReActAgent, Runner } from '@replan/core';
import { afterEach, describe, expect, it } from 'vitest';
import { OpenAIChatModel } from '../src/index.js';
import { useFakeServer } from './support/fake-server.js';
import { completion } from './support/payloads.js';

const server = useFakeServer();
const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** Every file under `dir` but the blobs, as text. */
async function logText(dir: string): Promise<string> {
  let text = '';
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile() && !join(entry.parentPath, entry.name).includes('blobs'))
      text += await readFile(join(entry.parentPath, entry.name), 'utf8');
  return text;
}

describe('an image kept as a blob reaches the wire as bytes', () => {
  it('the log names the blob; a later run in a fresh store reads the bytes back just before the call', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'replan-media-wire-'));
    dirs.push(dir);
    const bytes = Buffer.alloc(64 * 1024, 7);
    const base64 = bytes.toString('base64');
    const image = imageFromBytes(bytes, { mediaType: 'image/png' });
    const runnerOn = () =>
      new Runner({
        agent: new ReActAgent({
          name: 'looker',
          model: new OpenAIChatModel({ model: 'gpt-4o', baseURL: server.baseURL, apiKey: 'k', maxRetries: 0, media: 'openai' }),
        }),
        appName: 'app',
        sessionStore: new FileSessionStore({ dir }),
      });

    server.reply({ json: completion({ content: 'A grey square.' }) });
    const first = await runnerOn()
      .run({ userId: 'u', sessionId: 's1', input: [{ type: 'text', text: 'What is this?' }, image] })
      .result();
    expect(first.output).toBe('A grey square.');
    expect(server.last.messages[0].content[1]).toEqual({ type: 'image_url', image_url: { url: `data:image/png;base64,${base64}` } });
    const log = await logText(dir);
    expect(log).toContain('"blob":"'); // the event names the blob …
    expect(log).not.toContain(base64.slice(0, 200)); // … and holds none of its bytes

    // Another process would start from the files alone: a fresh store and runner on the same dir.
    server.reply({ json: completion({ content: 'Still grey.' }) });
    await runnerOn().run({ userId: 'u', sessionId: 's1', input: 'And now?' }).result();
    expect(server.last.messages[0].content[1].image_url.url).toBe(`data:image/png;base64,${base64}`);
  });
});
