import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { InMemorySessionStore } from '@replan/core';
import { mcpServer } from '@replan/mcp';
import { describe, expect, it } from 'vitest';
import { textOf } from './support/mcp-client.js';
import {
  approvalRunner,
  type Blocking,
  blockingRunner,
  type Deployments,
  plannerRunner,
  structuredRunner,
  sumSchema,
} from './support/served-runners.js';

import { type InputRequired, token, useHttpEndpoints } from './support/http-endpoints.js';

const { open, listen, connect } = useHttpEndpoints();

describe('mcpServer over Streamable HTTP', () => {
  it('lists each agent as a tool with its description, { input } and, for a structured agent, an output schema', async () => {
    const server = mcpServer({ runners: [plannerRunner(), { runner: structuredRunner(), outputSchema: sumSchema }] });
    const client = await connect(await listen(server));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['planner_agent', 'summer']);
    expect(tools[1]?.description).toBe('Adds');
    expect(tools[0]?.inputSchema.properties).toHaveProperty('input');
    expect(tools[0]?.outputSchema).toBeUndefined();
    expect(JSON.stringify(tools[1]?.outputSchema)).toContain('"sum"');
  });

  it('runs a plan–execute agent to completion, one progress notification per plan step', async () => {
    const store = new InMemorySessionStore();
    const client = await connect(await listen(mcpServer({ runners: [plannerRunner(store)] })));
    const progress: { progress: number }[] = [];
    const result = await client.callTool({ name: 'planner_agent', arguments: { input: 'Add 2 and 3' } }, undefined, {
      onprogress: (p) => progress.push(p),
    });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('The sum is 5.');
    expect(progress.map((p) => p.progress)).toEqual([1, 2]);
    // One session per call, in the runner's store.
    expect((await store.list({ appName: 'mcp-test', userId: 'mcp' })).sessions).toHaveLength(1);
  });

  it('returns the structured answer of an agent with an output schema', async () => {
    const client = await connect(await listen(mcpServer({ runners: [{ runner: structuredRunner(), outputSchema: sumSchema }] })));
    const result = await client.callTool({ name: 'summer', arguments: { input: '2 + 3' } });
    expect(result.structuredContent).toEqual({ sum: 5 });
  });

  it('asks an approval by elicitation when the client supports it, and goes on with the answer', async () => {
    const deployments: Deployments = { count: 0 };
    const asked: string[] = [];
    const client = await connect(await listen(mcpServer({ runners: [approvalRunner(deployments)] })), (req) => {
      asked.push(req.params.message);
      return { action: 'accept', content: { approved: true } };
    });
    const result = await client.callTool({ name: 'deployer', arguments: { input: 'Deploy v2' } });
    expect(textOf(result)).toBe('Deployed v2.');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('deploy');
    expect(deployments.count).toBe(1);
  });

  it('a declined elicitation is a no: the tool does not run', async () => {
    const deployments: Deployments = { count: 0 };
    const client = await connect(await listen(mcpServer({ runners: [approvalRunner(deployments)] })), () => ({ action: 'decline' }));
    const result = await client.callTool({ name: 'deployer', arguments: { input: 'Deploy v2' } });
    expect(textOf(result)).toBe('Not deployed.');
    expect(deployments.count).toBe(0);
  });

  it('without elicitation, returns a resume token; the second call resumes the same session exactly once; a reused token is refused', async () => {
    const deployments: Deployments = { count: 0 };
    const store = new InMemorySessionStore();
    const client = await connect(await listen(mcpServer({ runners: [approvalRunner(deployments, store)] })));
    const first = await client.callTool({ name: 'deployer', arguments: { input: 'Deploy v2' } });
    const { inputRequired } = first.structuredContent as InputRequired;
    expect(inputRequired.interrupts.map((i) => i.reason)).toEqual(['approval']);
    expect(textOf(first)).toContain('resumeToken');
    expect(deployments.count).toBe(0);

    // An answer that is not an approval is refused, and the token stays good.
    const wrong = await client.callTool({ name: 'deployer', arguments: { resumeToken: inputRequired.resumeToken, answer: 'yes' } });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toMatch(/asks for an approval: answer true, false/);

    const second = await client.callTool({ name: 'deployer', arguments: { resumeToken: inputRequired.resumeToken, answer: true } });
    expect(textOf(second)).toBe('Deployed v2.');
    expect(deployments.count).toBe(1);
    expect((await store.list({ appName: 'mcp-test', userId: 'mcp' })).sessions).toHaveLength(1);

    const again = await client.callTool({ name: 'deployer', arguments: { resumeToken: inputRequired.resumeToken, answer: true } });
    expect(again.isError).toBe(true);
    expect(textOf(again)).toMatch(/already used/);
    expect(deployments.count).toBe(1);
  });

  it('two calls racing with one resume token: one resumes the run, the other is refused', async () => {
    const deployments: Deployments = { count: 0 };
    const client = await connect(await listen(mcpServer({ runners: [approvalRunner(deployments)] })));
    const first = await client.callTool({ name: 'deployer', arguments: { input: 'Deploy v2' } });
    const { resumeToken } = (first.structuredContent as InputRequired).inputRequired;
    const both = await Promise.all([1, 2].map(() => client.callTool({ name: 'deployer', arguments: { resumeToken, answer: true } })));
    expect(both.map((r) => Boolean(r.isError)).sort()).toEqual([false, true]);
    expect(both.map(textOf)).toContain('Deployed v2.');
    expect(deployments.count).toBe(1);
  });

  it('refuses an altered or foreign resume token, and arguments that fail the input schema, with an error result', async () => {
    const deployments: Deployments = { count: 0 };
    const client = await connect(await listen(mcpServer({ runners: [approvalRunner(deployments)] })));
    const first = await client.callTool({ name: 'deployer', arguments: { input: 'Deploy v2' } });
    const { resumeToken } = (first.structuredContent as InputRequired).inputRequired;
    const [payload, signature] = resumeToken.split('.');
    const foreign = await client.callTool({ name: 'deployer', arguments: { resumeToken: `${payload}.forged`, answer: true } });
    expect(foreign.isError).toBe(true);
    expect(textOf(foreign)).toMatch(/not issued by this server/);
    // Another session's id under this token's signature.
    const otherSession = Buffer.from(JSON.stringify({ s: 'another-session', i: ['x:approval'] })).toString('base64url');
    const altered = await client.callTool({ name: 'deployer', arguments: { resumeToken: `${otherSession}.${signature}`, answer: true } });
    expect(textOf(altered)).toMatch(/not issued by this server/);
    const noInput = await client.callTool({ name: 'deployer', arguments: { input: 42 } });
    expect(noInput.isError).toBe(true);
    expect(textOf(noInput)).toMatch(/Pass "input"/);
    expect(deployments.count).toBe(0);
  });

  it('asks by elicitation a client that declares the older, empty `elicitation: {}` capability', async () => {
    const deployments: Deployments = { count: 0 };
    const endpoint = await listen(mcpServer({ runners: [approvalRunner(deployments)] }));
    const client = new Client({ name: 'legacy-client', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, (req) => {
      asked.push(req.params.message);
      return { action: 'accept', content: { approved: true } };
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(endpoint.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    open.push(client);
    const result = await client.callTool({ name: 'deployer', arguments: { input: 'Deploy v2' } });
    expect(textOf(result)).toBe('Deployed v2.');
    expect(asked).toHaveLength(1);
    expect(deployments.count).toBe(1);
  });

  it('cancelling the call aborts the run, which stays in the store to resume', async () => {
    const store = new InMemorySessionStore();
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const blocking: Blocking = { started, aborted: false, calls: 0 };
    const runner = blockingRunner(blocking, store);
    const client = await connect(await listen(mcpServer({ runners: [runner] })));
    const controller = new AbortController();
    const call = client.callTool({ name: 'waiter', arguments: { input: 'wait' } }, undefined, { signal: controller.signal });
    await running;
    controller.abort();
    await expect(call).rejects.toThrow();
    await expect.poll(() => blocking.aborted).toBe(true);
    const { sessions } = await store.list({ appName: 'mcp-test', userId: 'mcp' });
    expect(sessions).toHaveLength(1);
    const resumed = await runner.resume({ userId: 'mcp', sessionId: sessions[0]?.id as string }).result();
    expect(resumed.status).toBe('completed');
    expect(resumed.output).toBe('waited');
  });
});

describe('mcpServer HTTP security', () => {
  const post = (url: string, headers: Record<string, string>, body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })) =>
    new Promise<number>((resolve, reject) => {
      const req = request(
        url,
        { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  it('binds 127.0.0.1 and needs a token of at least 16 characters', async () => {
    const server = mcpServer({ runners: [plannerRunner()] });
    expect((await listen(server)).url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    await expect(server.listen({ token: 'short' })).rejects.toThrow(/at least 16 characters/);
  });

  it('answers 401 without the bearer token, and refuses a foreign Host or Origin', async () => {
    const { url } = await listen(mcpServer({ runners: [plannerRunner()] }));
    expect(await post(url, {})).toBe(401);
    expect(await post(url, { authorization: 'Bearer wrong-token-0123456789' })).toBe(401);
    expect(await post(url, { authorization: `Bearer ${token}`, host: 'evil.example:80' })).toBe(403);
    expect(await post(url, { authorization: `Bearer ${token}`, origin: 'http://evil.example' })).toBe(403);
    expect(await post(url, { authorization: `Bearer ${token}`, 'mcp-session-id': '../../etc' })).toBe(404);
  });

  it('answers 413 to a request body over maxBodyBytes', async () => {
    const endpoint = await mcpServer({ runners: [plannerRunner()] }).listen({ token, maxBodyBytes: 1024 });
    open.push(endpoint);
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { padding: 'x'.repeat(4096) } });
    expect(await post(endpoint.url, { authorization: `Bearer ${token}` }, big)).toBe(413);
  });

  it('a client with the token gets in (the SDK client lists tools)', async () => {
    const client: Client = await connect(await listen(mcpServer({ runners: [plannerRunner()] })));
    expect((await client.listTools()).tools).toHaveLength(1);
  });
});
