import type { Task } from '@a2a-js/sdk';
import { InMemorySessionStore } from '@replan/core';
import { a2aServer } from '@replan/a2a';
import { afterEach, describe, expect, it } from 'vitest';
import { a2aClient, artifactText, collect, data, labels, STATES, send, taskIdOf, text } from './support/a2a-client.js';
import { approvalRunner, blockingRunner, blockingTool, type Deployments, plannerRunner } from './support/runners.js';
import type { A2aEndpoint } from '../src/server/a2a-server.js';

const endpoints: A2aEndpoint[] = [];
afterEach(async () => {
  await Promise.all(endpoints.splice(0).map((e) => e.close()));
});
async function serve(...args: Parameters<typeof a2aServer>) {
  const endpoint = await a2aServer(...args).listen();
  endpoints.push(endpoint);
  return endpoint;
}
const stateOf = (task: Task) => STATES[task.status?.state ?? 0];

describe('a2aServer over loopback, with the SDK client', () => {
  it('serves an agent card made from the agent, on 127.0.0.1', async () => {
    const endpoint = await serve({ runner: plannerRunner() });
    expect(endpoint.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const card = await (await a2aClient(endpoint.url)).getAgentCard();
    expect(card.name).toBe('sums');
    expect(card.description).toBe('Adds numbers, with a plan');
    expect(card.skills.map((s) => s.id)).toEqual(['sums']);
    expect(card.capabilities?.streaming).toBe(true);
  });

  it('message/send runs a task to its answer; the task id is the session id, in the context given', async () => {
    const store = new InMemorySessionStore();
    const endpoint = await serve({ runner: plannerRunner(store) });
    const client = await a2aClient(endpoint.url);
    const task = (await client.sendMessage(send('What is 2 + 3?', { contextId: 'user-7' }))) as Task;
    expect(stateOf(task)).toBe('completed');
    expect(task.contextId).toBe('user-7');
    expect(artifactText(task, 'answer')).toBe('The sum is 5.');
    expect(task.artifacts.map((a) => a.artifactId)).toEqual(['plan', 'answer']);
    expect(await store.get({ appName: 'a2a-test', userId: 'a2a', id: task.id })).toBeDefined();
    const again = await client.getTask({ tenant: '', id: task.id });
    expect(stateOf(again)).toBe('completed');
  });

  it('message/stream streams the task, the plan, a status per step, the answer and the end', async () => {
    const endpoint = await serve({ runner: plannerRunner() });
    const client = await a2aClient(endpoint.url);
    const events = await collect(client.sendMessageStream(send('What is 2 + 3?')));
    expect(labels(events)).toEqual([
      'task:working',
      'artifact:plan',
      'status:working',
      'artifact:plan',
      'status:working',
      'artifact:answer',
      'status:completed',
    ]);
  });

  it('an approval makes the task input-required; the next message answers it, once', async () => {
    const deployments: Deployments = { count: 0 };
    const endpoint = await serve({ runner: approvalRunner(deployments) });
    const client = await a2aClient(endpoint.url);
    const events = await collect(client.sendMessageStream(send('Deploy v2')));
    expect(labels(events).at(-1)).toBe('status:input-required');
    const taskId = taskIdOf(events);
    expect(deployments.count).toBe(0);

    const answered = await collect(client.sendMessageStream(send('yes', { taskId })));
    expect(labels(answered).at(-1)).toBe('status:completed');
    expect(deployments.count).toBe(1);
    const done = await client.getTask({ tenant: '', id: taskId });
    expect(artifactText(done, 'answer')).toBe('Deployed v2.');

    // A second answer to the same question is refused: the task has ended, nothing runs again.
    await expect(client.sendMessage(send('yes', { taskId }))).rejects.toThrow(/has ended/);
    expect(deployments.count).toBe(1);
  });

  it('an answer that is no approval is an invalid-params error, and the question stays open', async () => {
    const deployments: Deployments = { count: 0 };
    const endpoint = await serve({ runner: approvalRunner(deployments) });
    const client = await a2aClient(endpoint.url);
    const task = (await client.sendMessage(send('Deploy v2'))) as Task;
    expect(stateOf(task)).toBe('input-required');
    await expect(client.sendMessage(send('perhaps', { taskId: task.id }))).rejects.toThrow(/asks for an approval/);
    const declined = (await client.sendMessage(send([data({ approved: false, message: 'not today' })], { taskId: task.id }))) as Task;
    expect(stateOf(declined)).toBe('completed');
    expect(artifactText(declined, 'answer')).toBe('Not deployed.');
    expect(deployments.count).toBe(0);
  });

  it('tasks/cancel aborts a running task; the task reads canceled', async () => {
    const { blocking, running } = blockingTool();
    const endpoint = await serve({ runner: blockingRunner(blocking) });
    const client = await a2aClient(endpoint.url);
    const stream = client.sendMessageStream(send('Wait'));
    const first = await stream.next();
    const taskId = first.value?.payload?.$case === 'task' ? first.value.payload.value.id : '';
    await running;
    const canceled = await client.cancelTask({ tenant: '', id: taskId, metadata: undefined });
    expect(stateOf(canceled)).toBe('canceled');
    expect(blocking.aborted).toBe(true);
    const rest = await collect({ [Symbol.asyncIterator]: () => stream });
    expect(labels(rest).at(-1)).toBe('status:canceled');
    expect(stateOf(await client.getTask({ tenant: '', id: taskId }))).toBe('canceled');
    await expect(client.cancelTask({ tenant: '', id: taskId, metadata: undefined })).rejects.toThrow(/already ended/);
  });

  it('a client that leaves mid-stream does not stop the run; resubscribe finds it and follows it to the end', async () => {
    const { blocking, running } = blockingTool();
    const endpoint = await serve({ runner: blockingRunner(blocking) });
    const client = await a2aClient(endpoint.url);
    const leaving = new AbortController();
    const stream = client.sendMessageStream(send('Wait'), { signal: leaving.signal });
    const first = await stream.next();
    const taskId = first.value?.payload?.$case === 'task' ? first.value.payload.value.id : '';
    await running;
    leaving.abort();
    await stream.return(undefined).catch(() => undefined);
    expect(blocking.aborted).toBe(false);

    const resubscribed = client.resubscribeTask({ tenant: '', id: taskId });
    const head = await resubscribed.next();
    expect(head.value?.payload?.$case).toBe('task');
    blocking.release?.();
    const rest = await collect({ [Symbol.asyncIterator]: () => resubscribed });
    expect(labels(rest).at(-1)).toBe('status:completed');
    expect(artifactText(await client.getTask({ tenant: '', id: taskId }), 'answer')).toBe('Done waiting.');
  });

  it('refuses bad input with A2A errors: no text, an unknown task, an oversized body', async () => {
    const endpoint = await serve({ runner: plannerRunner(), maxInputChars: 100 });
    const client = await a2aClient(endpoint.url);
    await expect(client.sendMessage(send([text('   ')]))).rejects.toThrow(/no text/);
    await expect(client.sendMessage(send('x'.repeat(101)))).rejects.toThrow(/over 100 characters/);
    await expect(client.getTask({ tenant: '', id: 'no-such-task' })).rejects.toThrow(/no task "no-such-task"/);
    await expect(client.sendMessage(send('yes', { taskId: 'no-such-task' }))).rejects.toThrow(/no task/);
    await expect(collect(client.resubscribeTask({ tenant: '', id: '../../etc' }))).rejects.toThrow(/no task/);
    const big = await fetch(endpoint.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { pad: 'x'.repeat(2 * 1024 * 1024) } }),
    });
    expect(big.status).toBe(413);
  });
});
