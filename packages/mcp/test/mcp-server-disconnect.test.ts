// A client that goes away in the middle of a long call: the run is the server's, and goes on in the store.
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type AgentEvent, InMemorySessionStore } from '@replan/core';
import { mcpServer } from '@replan/mcp';
import { afterEach, describe, expect, it } from 'vitest';
import { httpClient } from './support/mcp-client.js';
import { type Deployments, type Gate, gatedApprovalRunner, gatedPlannerRunner } from './support/served-runners.js';

const token = 'test-token-0123456789abcdef';
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

/** A gate, with a promise that the tool behind it started and a function that opens it. */
function newGate(): { gate: Gate; running: Promise<void>; release: () => void } {
  let started!: () => void;
  let release!: () => void;
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });
  const gate: Gate = {
    started,
    aborted: false,
    open: new Promise<void>((resolve) => {
      release = resolve;
    }),
  };
  return { gate, running, release };
}

const key = { appName: 'mcp-test', userId: 'mcp' };

/** The one session the store holds, once its run has ended or stopped on a question (an interrupt ends no invocation). */
async function endedSession(store: InMemorySessionStore): Promise<{ id: string; events: readonly AgentEvent[] }> {
  let session: { id: string; events: readonly AgentEvent[] } | undefined;
  await expect
    .poll(async () => {
      const [listed] = (await store.list(key)).sessions;
      session = listed && (await store.get({ ...key, id: listed.id }));
      return session?.events.some((e) => e.actions?.invocationEnd || e.actions?.interrupt) ?? false;
    })
    .toBe(true);
  return session as { id: string; events: readonly AgentEvent[] };
}

const endOf = (events: readonly AgentEvent[]) => events.findLast((e) => e.actions?.invocationEnd)?.actions?.invocationEnd;

describe('mcpServer over Streamable HTTP: a client that disconnects mid-call', () => {
  it('the run goes on to its end in the server: the store holds the completed session, and the server serves the next client', async () => {
    const store = new InMemorySessionStore();
    const { gate, running, release } = newGate();
    const endpoint = await mcpServer({ runners: [gatedPlannerRunner(gate, store)] }).listen({ token });
    open.push(endpoint);
    const client = await httpClient(endpoint.url, token);
    const progress: number[] = [];
    const call = client.callTool({ name: 'reporter', arguments: { input: 'Get the report' } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    await running;
    await client.close();
    await expect(call).rejects.toThrow(/Connection closed/);

    // The tool finishes after the client left: nothing aborted it, and the rest of the plan runs.
    release();
    const session = await endedSession(store);
    expect(gate.aborted).toBe(false);
    expect(endOf(session.events)).toMatchObject({ status: 'completed', output: 'Report: ready.' });
    expect(progress).toEqual([]);

    const next = await httpClient(endpoint.url, token);
    open.push(next);
    expect((await next.listTools()).tools.map((t) => t.name)).toEqual(['reporter']);
  });

  it.each([
    ['that asks by elicitation', () => ({ action: 'accept' as const, content: { approved: true } })],
    ['without elicitation', undefined],
  ])(
    'a run that reaches a question after the client %s left waits for it in the store, and runner.resume answers it',
    async (_, onElicit) => {
      const store = new InMemorySessionStore();
      const deployments: Deployments = { count: 0 };
      const { gate, running, release } = newGate();
      const runner = gatedApprovalRunner(gate, deployments, store);
      const endpoint = await mcpServer({ runners: [runner] }).listen({ token });
      open.push(endpoint);
      const client = await httpClient(endpoint.url, token, onElicit);
      const call = client.callTool({ name: 'publisher', arguments: { input: 'Publish the report' } });
      await running;
      await client.close();
      await expect(call).rejects.toThrow(/Connection closed/);
      release();

      const session = await endedSession(store);
      expect(endOf(session.events)).toBeUndefined();
      const asked = session.events.findLast((e) => e.actions?.interrupt)?.actions?.interrupt;
      expect(asked?.reason).toBe('approval');
      expect(deployments.count).toBe(0);

      const resumed = await runner.resume({ userId: 'mcp', sessionId: session.id, values: { [asked?.id as string]: true } }).result();
      expect(resumed.status).toBe('completed');
      expect(resumed.output).toBe('Report deployed.');
      expect(deployments.count).toBe(1);
    },
  );

  it('ending the MCP session (DELETE) mid-call aborts the run, which stays in the store to resume', async () => {
    const store = new InMemorySessionStore();
    const { gate, running, release } = newGate();
    const runner = gatedPlannerRunner(gate, store);
    const endpoint = await mcpServer({ runners: [runner] }).listen({ token });
    open.push(endpoint);
    const client = await httpClient(endpoint.url, token);
    open.push(client);
    const call = client.callTool({ name: 'reporter', arguments: { input: 'Get the report' } });
    call.catch(() => undefined);
    await running;
    await (client.transport as StreamableHTTPClientTransport).terminateSession();
    await expect.poll(() => gate.aborted).toBe(true);
    release();
    const [session] = (await store.list(key)).sessions;
    const resumed = await runner.resume({ userId: 'mcp', sessionId: session?.id as string }).result();
    expect(resumed.status).toBe('completed');
    expect(resumed.output).toBe('Report: ready.');
  });
});
