import { createHmac } from 'node:crypto';
import { ConfigurationError, InMemorySessionStore } from '@replan/core';
import { mcpServer } from '@replan/mcp';
import { describe, expect, it } from 'vitest';
import { textOf } from './support/mcp-client.js';
import { approvalRunner, type Deployments, plannerRunner } from './support/served-runners.js';
import { type InputRequired, useHttpEndpoints } from './support/http-endpoints.js';

const { listen, connect } = useHttpEndpoints();

describe('mcpServer bad input', () => {
  const sessionsOf = async (store: InMemorySessionStore) => (await store.list({ appName: 'mcp-test', userId: 'mcp' })).sessions;

  it('a token issued by one tool is refused by another sharing the store: nothing runs, the session still waits', async () => {
    const store = new InMemorySessionStore();
    const a: Deployments = { count: 0 };
    const b: Deployments = { count: 0 };
    const server = mcpServer({ runners: [approvalRunner(a, store), { runner: approvalRunner(b, store), name: 'deployer_b' }] });
    const client = await connect(await listen(server));
    const first = await client.callTool({ name: 'deployer', arguments: { input: 'Deploy v2' } });
    const { resumeToken } = (first.structuredContent as InputRequired).inputRequired;

    const onB = await client.callTool({ name: 'deployer_b', arguments: { resumeToken, answer: true } });
    expect(onB.isError).toBe(true);
    expect(textOf(onB)).toMatch(/issued for the tool "deployer", not "deployer_b"/);
    expect(b.count).toBe(0);
    expect(a.count).toBe(0);
    const [session] = await sessionsOf(store);
    const stored = await store.get({ appName: 'mcp-test', userId: 'mcp', id: session?.id as string });
    expect(stored?.events.some((e) => e.actions?.resumeValues)).toBe(false);

    // The refusal spent nothing: the token still resumes A's session, on A.
    const onA = await client.callTool({ name: 'deployer', arguments: { resumeToken, answer: true } });
    expect(textOf(onA)).toBe('Deployed v2.');
    expect([a.count, b.count]).toEqual([1, 0]);
  });

  it('refuses a validly signed token of the older format (it names no tool), without running anything', async () => {
    const tokenSecret = 'stable-secret-for-the-test';
    const store = new InMemorySessionStore();
    const deployments: Deployments = { count: 0 };
    const client = await connect(await listen(mcpServer({ runners: [approvalRunner(deployments, store)], tokenSecret })));
    const first = await client.callTool({ name: 'deployer', arguments: { input: 'Deploy v2' } });
    const { interrupts } = (first.structuredContent as InputRequired).inputRequired;
    const [session] = await sessionsOf(store);
    const payload = Buffer.from(JSON.stringify({ s: session?.id, i: interrupts.map((i) => i.id) })).toString('base64url');
    const old = `${payload}.${createHmac('sha256', tokenSecret).update(payload).digest('base64url')}`;
    const result = await client.callTool({ name: 'deployer', arguments: { resumeToken: old, answer: true } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/older version of this server/);
    expect(deployments.count).toBe(0);
  });

  it('an unknown tool name is an error result naming it', async () => {
    const client = await connect(await listen(mcpServer({ runners: [plannerRunner()] })));
    const result = await client.callTool({ name: 'no_such_agent', arguments: { input: 'hi' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/no agent "no_such_agent"/);
  });

  it('a valid token whose session was deleted is an error result saying the run no longer exists', async () => {
    const store = new InMemorySessionStore();
    const deployments: Deployments = { count: 0 };
    const client = await connect(await listen(mcpServer({ runners: [approvalRunner(deployments, store)] })));
    const first = await client.callTool({ name: 'deployer', arguments: { input: 'Deploy v2' } });
    const { resumeToken } = (first.structuredContent as InputRequired).inputRequired;
    const [session] = await sessionsOf(store);
    await store.delete({ appName: 'mcp-test', userId: 'mcp', id: session?.id as string });
    const result = await client.callTool({ name: 'deployer', arguments: { resumeToken, answer: true } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/no longer exists/);
    expect(deployments.count).toBe(0);
  });

  it('an input over maxInputChars is an error result and stores no session; one within it runs', async () => {
    const store = new InMemorySessionStore();
    const client = await connect(await listen(mcpServer({ runners: [plannerRunner(store)], maxInputChars: 20 })));
    const tooLong = await client.callTool({ name: 'planner_agent', arguments: { input: 'x'.repeat(21) } });
    expect(tooLong.isError).toBe(true);
    expect(textOf(tooLong)).toMatch(/over 20 characters/);
    expect(await sessionsOf(store)).toHaveLength(0);
    const fits = await client.callTool({ name: 'planner_agent', arguments: { input: 'Add 2 and 3' } });
    expect(textOf(fits)).toBe('The sum is 5.');
    expect(() => mcpServer({ runners: [plannerRunner()], maxInputChars: 0 })).toThrow(ConfigurationError);
  });
});
