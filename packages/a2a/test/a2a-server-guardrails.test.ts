import type { Task } from '@a2a-js/sdk';
import { a2aServer } from '@replan/a2a';
import { type Guardrail, InMemorySessionStore, Runner } from '@replan/core';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { a2aClient, collect, labels, STATES, send } from './support/a2a-client.js';
import type { A2aEndpoint } from '../src/server/a2a-server.js';

const endpoints: A2aEndpoint[] = [];
afterEach(async () => {
  await Promise.all(endpoints.splice(0).map((e) => e.close()));
});

const noCodes: Guardrail = { name: 'no_codes', check: (text) => ({ tripwire: text.includes('XYZZY'), reason: 'leaks a code' }) };

async function vaultServer() {
  const scripted = scriptPlanExecute({
    plan: { steps: ['look in the notes'] },
    steps: { 'look in the notes': 'the notes mention a code' },
    answer: 'The vault code is XYZZY.',
  });
  const agent = createPlanExecuteAgent({ name: 'vault', model: scripted.model, guardrails: { output: [noCodes] } });
  const runner = new Runner({ agent, appName: 'a2a-test', sessionStore: new InMemorySessionStore() });
  const endpoint = await a2aServer({ runner }).listen();
  endpoints.push(endpoint);
  return a2aClient(endpoint.url);
}

const BLOCK = 'Blocked by the output guardrail \\"no_codes\\": leaks a code.';
const statusText = (task: Task) => JSON.stringify(task.status?.message?.parts ?? []);

describe('an A2A task whose answer an output guardrail blocked', () => {
  it('message/send, tasks/get and tasks/resubscribe show the block and no answer artifact', async () => {
    const client = await vaultServer();
    const task = (await client.sendMessage(send('What is the code?'))) as Task;
    expect(STATES[task.status?.state ?? 0]).toBe('rejected');
    expect(statusText(task)).toContain(BLOCK);
    expect(task.artifacts.map((a) => a.artifactId)).toEqual(['plan']);
    const got = await client.getTask({ tenant: '', id: task.id });
    const resubscribed = await collect(client.resubscribeTask({ tenant: '', id: task.id }));
    for (const seen of [task, got, resubscribed]) expect(JSON.stringify(seen)).not.toContain('XYZZY');
    expect(statusText(got)).toContain(BLOCK);
    expect(STATES[got.status?.state ?? 0]).toBe('rejected');
    expect(JSON.stringify(resubscribed)).toContain(BLOCK);
  });

  it('message/stream ends with the block, never the answer', async () => {
    const client = await vaultServer();
    const events = await collect(client.sendMessageStream(send('What is the code?')));
    expect(JSON.stringify(events)).not.toContain('XYZZY');
    expect(JSON.stringify(events.at(-1))).toContain(BLOCK);
    expect(labels(events).at(-1)).toBe('status:rejected');
  });
});
