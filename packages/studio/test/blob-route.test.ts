import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { InMemorySessionStore } from '@replan/core';
import { afterEach, describe, expect, it } from 'vitest';
import { serveStudio, type StudioHandle } from '../src/index.js';
import { tokenOf } from './support/http.js';
import { HOSTILE_HTML, HOSTILE_SVG, INVOICE_PNG, runMediaSession } from './support/media-scenario.js';

let studio: StudioHandle | undefined;
afterEach(async () => {
  await studio?.close();
  studio = undefined;
});

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A GET with the bytes of the answer (the shared helper reads text). */
function get(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function start() {
  const store = new InMemorySessionStore();
  const other = Buffer.concat([INVOICE_PNG, Buffer.from('another image')]);
  expect((await runMediaSession(store, 'media-app', 's1')).status).toBe('completed');
  expect((await runMediaSession(store, 'media-app', 's2', other)).status).toBe('completed');
  studio = await serveStudio({ store, users: ['ana'] });
  const origin = new URL(studio.url).origin;
  const token = tokenOf(studio.url);
  const blobUrl = (id: string, session = 's1') => `${origin}/api/blobs/${id}?app=media-app&user=ana&id=${session}`;
  return { token, blobUrl, other, auth: { 'x-replan-token': token } };
}

describe('the studio blob route', () => {
  it('serves a PNG the session names inline, byte for byte, with nosniff and its exact type', async () => {
    const { blobUrl, auth } = await start();
    const answer = await get(blobUrl(sha(INVOICE_PNG)), auth);
    expect(answer.status).toBe(200);
    expect(sha(answer.body)).toBe(sha(INVOICE_PNG));
    expect(answer.headers['content-type']).toBe('image/png');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['content-disposition']).toMatch(/^inline; filename="image-[0-9a-f]{12}"$/);
    expect(answer.headers['content-security-policy']).toContain('sandbox');
  });

  it('serves SVG and HTML as attachments of type application/octet-stream, never as what they are', async () => {
    const { blobUrl, auth } = await start();
    const svg = await get(blobUrl(sha(HOSTILE_SVG)), auth);
    expect(svg.status).toBe(200);
    expect(svg.headers['content-type']).toBe('application/octet-stream');
    expect(svg.headers['content-disposition']).toMatch(/^attachment; /);
    expect(svg.headers['x-content-type-options']).toBe('nosniff');
    expect(svg.body.equals(HOSTILE_SVG)).toBe(true);
    const html = await get(blobUrl(sha(HOSTILE_HTML)), auth);
    expect(html.headers['content-type']).toBe('application/octet-stream');
    expect(html.headers['content-disposition']).toBe('attachment; filename="page.html"');
  });

  it('refuses without the token or with a wrong one', async () => {
    const { blobUrl, token } = await start();
    expect((await get(blobUrl(sha(INVOICE_PNG)))).status).toBe(401);
    expect((await get(blobUrl(sha(INVOICE_PNG)), { 'x-replan-token': `${token}x` })).status).toBe(401);
    expect((await get(`${blobUrl(sha(INVOICE_PNG))}&token=${token}`)).status).toBe(401);
  });

  it('does not serve the blob of another session, though the store holds it', async () => {
    const { blobUrl, auth, other } = await start();
    expect((await get(blobUrl(sha(other), 's2'), auth)).status).toBe(200);
    const answer = await get(blobUrl(sha(other), 's1'), auth);
    expect(answer.status).toBe(404);
    expect(answer.body.toString()).toContain('names no blob');
    expect(answer.body.includes(other)).toBe(false);
  });

  it('refuses an id that is not a SHA-256 in hex (traversal, upper case, short), and a POST', async () => {
    const { blobUrl, auth } = await start();
    const id = sha(INVOICE_PNG);
    for (const bad of ['..%2F..%2Fetc%2Fpasswd', id.toUpperCase(), id.slice(1), `${id}0`, ''])
      expect((await get(blobUrl(bad), auth)).status, bad).toBe(400);
    // a session id that tries to climb to another session finds no session
    expect((await get(blobUrl(id).replace('id=s1', 'id=..%2Fs2'), auth)).status).toBe(404);
    const post = await new Promise<number>((resolve, reject) => {
      const req = request(blobUrl(id), { method: 'POST', headers: auth }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(post).toBe(405);
  });

  it('the event view names images and files by type, size and blob id, never with their bytes', async () => {
    const { token } = await start();
    const origin = new URL(studio!.url).origin;
    const page = await get(`${origin}/api/event?app=media-app&user=ana&id=s1&index=0`, { 'x-replan-token': token });
    const view = JSON.parse(page.body.toString()).view;
    expect(view.blocks.map((b: { type: string }) => b.type)).toEqual(['text', 'media', 'media', 'media']);
    expect(view.blocks[1].media).toEqual({
      kind: 'image',
      mediaType: 'image/png',
      size: INVOICE_PNG.length,
      blob: sha(INVOICE_PNG),
      shown: true,
    });
    expect(view.blocks[2].media).toMatchObject({ kind: 'image', mediaType: 'image/svg+xml', shown: false });
    expect(view.blocks[3].media).toMatchObject({ kind: 'file', mediaType: 'text/html', filename: 'page.html', shown: false });
    expect(page.body.toString()).not.toContain(INVOICE_PNG.toString('base64').slice(0, 40));
  });
});
