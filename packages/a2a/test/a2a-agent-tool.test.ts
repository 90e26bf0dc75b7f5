import { a2aAgentTool, a2aServer } from '@replan/a2a';
import { InMemorySessionStore, ReActAgent, Runner } from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { approvalRunner, type Deployments } from './support/runners.js';
import type { A2aEndpoint } from '../src/server/a2a-server.js';

const endpoints: A2aEndpoint[] = [];
afterEach(async () => {
  await Promise.all(endpoints.splice(0).map((e) => e.close()));
});

/** A remote replan agent (its deploy tool needs approval) served over A2A on loopback. */
async function remoteDeployer(deployments: Deployments) {
  const endpoint = await a2aServer({ runner: approvalRunner(deployments) }).listen();
  endpoints.push(endpoint);
  return endpoint;
}

/** A local agent that delegates to the remote one through a2aAgentTool, then answers with what it said. */
function localRunner(url: string, fetchImpl?: typeof fetch) {
  const remote = a2aAgentTool(url, { name: 'deployer', description: 'Deploys versions', ...(fetchImpl ? { fetch: fetchImpl } : {}) });
  const model = new ScriptedModel({
    respond: (request) => {
      const result = request.messages.at(-1)?.content.find((b) => b.type === 'tool_result');
      if (!result) return callTools({ name: 'deployer', args: { input: 'Deploy v2' } });
      return `The deployer said: ${result.type === 'tool_result' ? JSON.stringify(result.output) : ''}`;
    },
  });
  const agent = new ReActAgent({ name: 'ops', description: 'Runs operations', model, tools: [remote] });
  return new Runner({ agent, appName: 'local', sessionStore: new InMemorySessionStore() });
}

describe('a2aAgentTool: a replan agent calling a remote replan agent over A2A', () => {
  it('turns the remote approval into a local approval interrupt, and forwards the answer once', async () => {
    const deployments: Deployments = { count: 0 };
    const endpoint = await remoteDeployer(deployments);
    const runner = localRunner(endpoint.url);
    const first = await runner.run({ userId: 'u', input: 'Ship v2' }).result();
    expect(first.status).toBe('interrupted');
    const [asked] = first.interrupts;
    expect(asked?.reason).toBe('approval');
    expect(asked?.id).toMatch(/\/remote-input-1$/);
    expect(asked?.payload).toMatchObject({ agent: endpoint.url });
    expect(deployments.count).toBe(0);

    const done = await runner.resume({ userId: 'u', sessionId: first.sessionId, values: { [asked?.id as string]: true } }).result();
    expect(done.status).toBe('completed');
    expect(done.output).toContain('Deployed v2.');
    expect(deployments.count).toBe(1);

    await expect(
      runner.resume({ userId: 'u', sessionId: first.sessionId, values: { [asked?.id as string]: true } }).result(),
    ).rejects.toMatchObject({ name: 'ResumeError', kind: 'unknown_interrupt' });
    expect(deployments.count).toBe(1);
  });

  it('a local run that dies after the remote got the answer, before it recorded the forward, does not forward it again', async () => {
    const deployments: Deployments = { count: 0 };
    const endpoint = await remoteDeployer(deployments);
    const crash = new AbortController();
    let answersSent = 0;
    // The answer reaches the remote; then the local run dies before it hears back (as a process killed there would).
    const dying: typeof fetch = async (input, init) => {
      const body = typeof init?.body === 'string' ? init.body : '';
      const isAnswer = body.includes('"SendMessage"') && /"taskId":"[^"]+"/.test(body);
      const response = await fetch(input, init);
      if (isAnswer) {
        answersSent += 1;
        await response.text();
        crash.abort(new Error('the local process died'));
        throw new Error('the local process died');
      }
      return response;
    };
    const runner = localRunner(endpoint.url, dying);
    const first = await runner.run({ userId: 'u', input: 'Ship v2' }).result();
    const id = first.interrupts[0]?.id as string;
    const cut = await runner.resume({ userId: 'u', sessionId: first.sessionId, values: { [id]: true }, signal: crash.signal }).result();
    expect(cut.status).not.toBe('completed');
    expect(answersSent).toBe(1);
    expect(deployments.count).toBe(1);

    // The killed run's remote call may still be settling in this process (a real crash has no such leftover): poll until it has.
    let recovered = await runner.resume({ userId: 'u', sessionId: first.sessionId }).result();
    for (let i = 0; i < 200 && /already running/.test(recovered.error?.message ?? ''); i++) {
      await new Promise((r) => setTimeout(r, 10));
      recovered = await runner.resume({ userId: 'u', sessionId: first.sessionId }).result();
    }
    expect(recovered.error?.message).toBeUndefined();
    expect(recovered.status).toBe('completed');
    expect(recovered.output).toContain('Deployed v2.');
    expect(answersSent).toBe(1);
    expect(deployments.count).toBe(1);
  });

  it('a remote that is not there is a tool error the model reads, not a crash', async () => {
    const runner = localRunner('http://127.0.0.1:9');
    const result = await runner.run({ userId: 'u', input: 'Ship v2' }).result();
    expect(result.status).toBe('completed');
    expect(result.output).toMatch(/A2aError|A2A agent at http:\/\/127\.0\.0\.1:9/);
  });
});
