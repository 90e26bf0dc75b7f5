import { InMemorySessionStore } from '@replan/core';
import { afterEach, describe, expect, it } from 'vitest';
import { serveStudio, type StudioHandle } from '../src/index.js';
import { rawRequest, tokenOf } from './support/http.js';
import { approvalScenario } from './support/scenarios.js';

let studio: StudioHandle | undefined;
afterEach(async () => {
  await studio?.close();
  studio = undefined;
});

async function start() {
  const store = new InMemorySessionStore();
  const runner = approvalScenario(store, 'approval-app');
  studio = await serveStudio({ store, runners: [runner], users: ['ana'] });
  const base = new URL(studio.url);
  const origin = `http://127.0.0.1:${base.port}`;
  return { store, token: tokenOf(studio.url), origin, api: (path: string) => `${origin}${path}` };
}

const runBody = JSON.stringify({ app: 'approval-app', user: 'ana', input: 'send it', sessionId: 's1' });

describe('serveStudio refuses requests that are not from its own page', () => {
  it('binds to loopback and prints a URL that carries a long random token', async () => {
    const { token } = await start();
    expect(new URL(studio!.url).hostname).toBe('127.0.0.1');
    expect(token.length).toBeGreaterThanOrEqual(40);
    const other = await serveStudio({ store: new InMemorySessionStore() });
    expect(tokenOf(other.url)).not.toBe(token);
    await other.close();
  });

  it('reading session data needs the token header', async () => {
    const { api, token } = await start();
    for (const path of [
      '/api/info',
      '/api/owners',
      '/api/sessions?app=approval-app&user=ana',
      '/api/session?app=approval-app&user=ana&id=s1',
    ]) {
      expect((await rawRequest(api(path))).status, path).toBe(401);
      expect((await rawRequest(api(path), { headers: { 'x-replan-token': `${token}x` } })).status, path).toBe(401);
    }
    const ok = await rawRequest(api('/api/info'), { headers: { 'x-replan-token': token } });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toMatchObject({ readOnly: false, runnerApps: ['approval-app'], storeKind: 'memory' });
  });

  it('a token in the query string is not enough (only the page header counts)', async () => {
    const { api, token } = await start();
    expect((await rawRequest(api(`/api/info?token=${token}`))).status).toBe(401);
  });

  it('a change without the token, from a foreign Origin, without Origin or not as JSON writes nothing', async () => {
    const { api, token, origin, store } = await start();
    const attempts: Record<string, string>[] = [
      { origin, 'content-type': 'application/json' },
      { 'x-replan-token': token, origin: 'http://evil.example', 'content-type': 'application/json' },
      { 'x-replan-token': token, 'content-type': 'application/json' },
      { 'x-replan-token': token, origin, 'content-type': 'text/plain' },
      { 'x-replan-token': token, origin, 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' },
    ];
    const statuses = [];
    for (const headers of attempts) statuses.push((await rawRequest(api('/api/run'), { method: 'POST', headers, body: runBody })).status);
    expect(statuses).toEqual([401, 403, 403, 415, 403]);
    expect(await store.get({ appName: 'approval-app', userId: 'ana', id: 's1' })).toBeUndefined();
    const accepted = await rawRequest(api('/api/run'), {
      method: 'POST',
      headers: { 'x-replan-token': token, origin, 'content-type': 'application/json' },
      body: runBody,
    });
    expect(accepted.status).toBe(202);
    expect((await store.get({ appName: 'approval-app', userId: 'ana', id: 's1' }))?.events.length).toBeGreaterThan(0);
  });

  it('a foreign Host (DNS rebinding) is refused, even for the page itself', async () => {
    const { api, token } = await start();
    const port = new URL(studio!.url).port;
    for (const host of [`evil.example:${port}`, 'localhost:1', `127.0.0.1.nip.io:${port}`]) {
      const page = await rawRequest(api('/'), { headers: { host } });
      expect(page.status, host).toBe(421);
      expect((await rawRequest(api('/api/info'), { headers: { host, 'x-replan-token': token } })).status, host).toBe(421);
    }
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`])
      expect((await rawRequest(api('/api/info'), { headers: { host, 'x-replan-token': token } })).status, host).toBe(200);
  });

  it('a link from another site may open the page (no data in it), never the API', async () => {
    const { api, token } = await start();
    expect((await rawRequest(api('/'), { headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(200);
    expect((await rawRequest(api('/api/info'), { headers: { 'sec-fetch-site': 'cross-site', 'x-replan-token': token } })).status).toBe(403);
  });

  it('serves the page with a strict Content-Security-Policy and only its own files', async () => {
    const { api } = await start();
    const page = await rawRequest(api('/'));
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.body).not.toMatch(/<script>(?!<)/); // no inline script: only <script src>
    expect((await rawRequest(api('/app/main.js'))).status).toBe(200);
    for (const path of ['/app/../../package.json', '/app/%2e%2e/%2e%2e/package.json', '/static/../package.json', '/app/Main.JS'])
      expect((await rawRequest(api(path))).status, path).toBe(404);
  });

  it('bad ids and bad numbers are refused with a clear message', async () => {
    const { api, token, origin } = await start();
    const headers = { 'x-replan-token': token };
    const bad = await rawRequest(api(`/api/session?app=approval-app&user=ana&id=${encodeURIComponent('a\u0000b')}`), { headers });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).message).toMatch(/session id/);
    const missing = await rawRequest(api('/api/session?app=approval-app&user=ana&id=nope'), { headers });
    expect(missing.status).toBe(404);
    const limit = await rawRequest(api('/api/sessions?app=approval-app&user=ana&limit=-3'), { headers });
    expect(limit.status).toBe(400);
    const post = { 'x-replan-token': token, origin, 'content-type': 'application/json' };
    expect((await rawRequest(api('/api/run'), { method: 'POST', headers: post, body: '{not json' })).status).toBe(400);
    expect(
      (
        await rawRequest(api('/api/run'), {
          method: 'POST',
          headers: post,
          body: JSON.stringify({ app: 'other', user: 'ana', input: 'x' }),
        })
      ).status,
    ).toBe(403);
  });

  it('read-only without runners: actions are refused', async () => {
    const store = new InMemorySessionStore();
    studio = await serveStudio({ store });
    const origin = `http://127.0.0.1:${new URL(studio.url).port}`;
    const res = await rawRequest(`${origin}/api/run`, {
      method: 'POST',
      headers: { 'x-replan-token': tokenOf(studio.url), origin, 'content-type': 'application/json' },
      body: runBody,
    });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).message).toMatch(/read-only/);
  });
});
