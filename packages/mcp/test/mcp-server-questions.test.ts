import { InMemorySessionStore, ReActAgent, Runner, toolResultsOf, tool } from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';
import { mcpServer } from '@replan/mcp';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { httpClient, textOf } from './support/mcp-client.js';
import type { McpHttpEndpoint } from '../src/server/mcp-server-options.js';

const token = 'test-token-0123456789abcdef';
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});
async function connect(server: ReturnType<typeof mcpServer>, onElicit?: Parameters<typeof httpClient>[2]) {
  const endpoint: McpHttpEndpoint = await server.listen({ token });
  open.push(endpoint);
  const client = await httpClient(endpoint.url, token, onElicit);
  open.push(client);
  return client;
}

/** An agent whose tool asks a free-text question (not an approval), then answers with what it was told. */
function regionRunner(): Runner {
  const pickRegion = tool({
    name: 'pick_region',
    description: 'Asks which region to use',
    parameters: z.object({}),
    execute: (_args, ctx) => `region ${ctx.interrupt<string>({ question: 'Which region?' }, { reason: 'region' })}`,
  });
  const model = new ScriptedModel({
    respond: (request) => {
      const result = toolResultsOf(request.messages.at(-1))[0];
      return result ? `Using ${String(result.output)}.` : callTools({ name: 'pick_region', args: {} });
    },
  });
  const agent = new ReActAgent({ name: 'regions', description: 'Picks a region', model, tools: [pickRegion] });
  return new Runner({ agent, appName: 'mcp-test', sessionStore: new InMemorySessionStore() });
}

/** An agent that answers with the input it was given (to see what the tool's arguments became). */
function echoRunner(): Runner {
  const model = new ScriptedModel({
    respond: (request) => {
      const first = request.messages.find((m) => m.role === 'user');
      return `got ${first?.content.map((b) => (b.type === 'text' ? b.text : '')).join('')}`;
    },
  });
  const agent = new ReActAgent({ name: 'echo', description: 'Echoes', model });
  return new Runner({ agent, appName: 'mcp-test', sessionStore: new InMemorySessionStore() });
}

describe('mcpServer: questions that are not approvals, asked by elicitation', () => {
  it('asks for a text answer; accepting gives the tool that answer', async () => {
    const asked: string[] = [];
    const client = await connect(mcpServer({ runners: [regionRunner()] }), (request) => {
      asked.push(request.params.message);
      expect(request.params.mode === 'url' ? undefined : request.params.requestedSchema.properties).toHaveProperty('answer');
      return { action: 'accept', content: { answer: 'eu-west' } };
    });
    const result = await client.callTool({ name: 'regions', arguments: { input: 'Deploy somewhere' } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('Using region eu-west.');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/region .*Which region\?/s);
  });

  it('declining leaves the question open: the call returns a resume token, and answering with it goes on', async () => {
    let asked = 0;
    const client = await connect(mcpServer({ runners: [regionRunner()] }), () => {
      asked += 1;
      return { action: 'decline' };
    });
    const first = await client.callTool({ name: 'regions', arguments: { input: 'Deploy somewhere' } });
    const { inputRequired } = first.structuredContent as { inputRequired: { resumeToken: string; interrupts: { reason: string }[] } };
    expect(inputRequired.interrupts.map((i) => i.reason)).toEqual(['region']);
    const second = await client.callTool({ name: 'regions', arguments: { resumeToken: inputRequired.resumeToken, answer: 'us-east' } });
    expect(second.isError).toBeFalsy();
    expect(textOf(second)).toBe('Using region us-east.');
    // Asked once: the answer given with the token is not asked again.
    expect(asked).toBe(1);
  });
});

describe("mcpServer: an entry's declared parameters", () => {
  const parameters = z.object({ city: z.string(), days: z.number().int().min(1) });

  it('are the tool input schema (with the resume arguments beside them), and the agent gets the arguments as JSON', async () => {
    const client = await connect(mcpServer({ runners: [{ runner: echoRunner(), parameters }] }));
    const { tools } = await client.listTools();
    expect(Object.keys(tools[0]?.inputSchema.properties ?? {}).sort()).toEqual(['answer', 'answers', 'city', 'days', 'resumeToken']);
    expect(tools[0]?.inputSchema.properties).not.toHaveProperty('input');
    const result = await client.callTool({ name: 'echo', arguments: { city: 'Lyon', days: 2 } });
    expect(textOf(result)).toBe('got {"city":"Lyon","days":2}');
  });

  it('a call whose arguments fail them is an error result naming the problem; nothing runs', async () => {
    const runner = echoRunner();
    const client = await connect(mcpServer({ runners: [{ runner, parameters }] }));
    const result = await client.callTool({ name: 'echo', arguments: { city: 'Lyon', days: 0 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Invalid arguments for echo: .*days/);
    expect((await runner.sessionStore.list({ appName: 'mcp-test', userId: 'mcp' })).sessions).toHaveLength(0);
  });
});

describe('mcpServer: an elicitation that fails', () => {
  it('a reply that does not fit the form ends the call with a resume token; answering with it goes on', async () => {
    const client = await connect(mcpServer({ runners: [regionRunner()] }), () => ({ action: 'accept', content: { answer: 42 } }));
    const first = await client.callTool({ name: 'regions', arguments: { input: 'Deploy somewhere' } });
    expect(first.isError).toBeFalsy();
    const { inputRequired } = first.structuredContent as { inputRequired: { resumeToken: string; interrupts: { reason: string }[] } };
    expect(inputRequired.interrupts.map((i) => i.reason)).toEqual(['region']);
    const second = await client.callTool({ name: 'regions', arguments: { resumeToken: inputRequired.resumeToken, answer: 'us-east' } });
    expect(textOf(second)).toBe('Using region us-east.');
  });

  it('a person who does not answer within elicitationTimeoutMs: the call ends with a resume token; answering with it goes on', async () => {
    const client = await connect(mcpServer({ runners: [regionRunner()], elicitationTimeoutMs: 150 }), () => new Promise(() => undefined));
    const first = await client.callTool({ name: 'regions', arguments: { input: 'Deploy somewhere' } });
    expect(first.isError).toBeFalsy();
    const { inputRequired } = first.structuredContent as { inputRequired: { resumeToken: string; interrupts: { reason: string }[] } };
    expect(inputRequired.interrupts.map((i) => i.reason)).toEqual(['region']);
    const second = await client.callTool({ name: 'regions', arguments: { resumeToken: inputRequired.resumeToken, answer: 'eu-west' } });
    expect(textOf(second)).toBe('Using region eu-west.');
  });

  it('refuses an elicitationTimeoutMs that is not a positive whole number', () => {
    expect(() => mcpServer({ runners: [regionRunner()], elicitationTimeoutMs: 0 })).toThrow(/elicitationTimeoutMs/);
  });
});
