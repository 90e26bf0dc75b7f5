import type { Task } from '@a2a-js/sdk';
import { a2aServer } from '@replan/a2a';
import { ConfigurationError } from '@replan/core';
import { afterEach, describe, expect, it } from 'vitest';
import { a2aClient, send } from './support/a2a-client.js';
import { plannerRunner } from './support/runners.js';
import type { A2aEndpoint } from '../src/server/a2a-server.js';

const TOKEN = 'a-secret-of-at-least-16-chars';
const endpoints: A2aEndpoint[] = [];
afterEach(async () => {
  await Promise.all(endpoints.splice(0).map((e) => e.close()));
});
async function listen(options: Parameters<ReturnType<typeof a2aServer>['listen']>[0]) {
  const endpoint = await a2aServer({ runner: plannerRunner() }).listen(options);
  endpoints.push(endpoint);
  return endpoint;
}
const rpc = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }),
  });

describe('a2aServer HTTP guards', () => {
  it('with a token, JSON-RPC needs the bearer token; the agent card stays public and declares the scheme', async () => {
    const endpoint = await listen({ token: TOKEN });
    expect((await rpc(endpoint.url)).status).toBe(401);
    expect((await rpc(endpoint.url, { authorization: 'Bearer wrong-token-wrong-token!' })).status).toBe(401);
    const card = await fetch(`${endpoint.url}/.well-known/agent-card.json`);
    expect(card.status).toBe(200);
    expect(Object.keys(((await card.json()) as { securitySchemes: object }).securitySchemes)).toEqual(['bearer']);
    const task = (await (await a2aClient(endpoint.url, TOKEN)).sendMessage(send('What is 2 + 3?'))) as Task;
    expect(task.status?.state).toBe(3);
  });

  it('refuses other origins and Host headers (DNS rebinding) before anything else', async () => {
    const endpoint = await listen({ allowedOrigins: ['http://app.example'] });
    expect((await rpc(endpoint.url, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await rpc(endpoint.url, { origin: 'http://app.example' })).status).toBe(200);
    const { port } = new URL(endpoint.url);
    const rebound = await new Promise<number>((resolve, reject) => {
      import('node:http').then(({ request }) => {
        const req = request(
          { host: '127.0.0.1', port, method: 'GET', path: '/.well-known/agent-card.json', headers: { host: `evil.example:${port}` } },
          (res) => resolve(res.statusCode ?? 0),
        );
        req.on('error', reject);
        req.end();
      }, reject);
    });
    expect(rebound).toBe(403);
  });

  it('refuses a short token with a ConfigurationError', async () => {
    await expect(a2aServer({ runner: plannerRunner() }).listen({ token: 'short' })).rejects.toThrow(ConfigurationError);
  });
});
