import { a2aAgentTool, type A2aEndpoint, a2aServer } from '@replan/a2a';
import { InMemorySessionStore, ReActAgent, Runner } from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { a2aClient, collect, labels, send } from './support/a2a-client.js';
import { approvalRunner, blockingRunner, blockingTool, type Deployments } from './support/runners.js';

const endpoints: A2aEndpoint[] = [];
afterEach(async () => {
  await Promise.all(endpoints.splice(0).map((e) => e.close()));
});
async function serve(runner: Runner) {
  const endpoint = await a2aServer({ runner }).listen();
  endpoints.push(endpoint);
  return endpoint;
}

/** An agent whose model fails: its task ends `failed`. */
function failingRunner(): Runner {
  const model = new ScriptedModel({
    respond: () => {
      throw new Error('the model is down');
    },
  });
  return new Runner({
    agent: new ReActAgent({ name: 'broken', description: 'Fails', model }),
    appName: 'a2a-test',
    sessionStore: new InMemorySessionStore(),
  });
}

describe('a2aServer: tasks in the wrong state, and failures', () => {
  it('a message on a working task is refused (resubscribe instead); a bad context id is invalid params', async () => {
    const { blocking, running } = blockingTool();
    const endpoint = await serve(blockingRunner(blocking));
    const client = await a2aClient(endpoint.url);
    const stream = client.sendMessageStream(send('Wait'));
    const head = await stream.next();
    const taskId = head.value?.payload?.$case === 'task' ? head.value.payload.value.id : '';
    await running;
    await expect(client.sendMessage(send('and now?', { taskId }))).rejects.toThrow(/is working/);
    await expect(client.sendMessage(send('Wait', { contextId: '../other user' }))).rejects.toThrow(/contextId/);
    blocking.release?.();
    expect(labels(await collect({ [Symbol.asyncIterator]: () => stream })).at(-1)).toBe('status:completed');
    expect(blocking.calls).toBe(1);
  });

  it('canceling a task that waits for input ends it canceled for A2A; the session stays resumable with runner.resume', async () => {
    const deployments: Deployments = { count: 0 };
    const runner = approvalRunner(deployments);
    const endpoint = await serve(runner);
    const client = await a2aClient(endpoint.url);
    const asked = await client.sendMessage(send('Deploy v2'));
    const taskId = 'id' in asked ? asked.id : '';
    const canceled = await client.cancelTask({ tenant: '', id: taskId, metadata: undefined });
    expect(canceled.status?.state).toBe(5);
    await expect(client.sendMessage(send('yes', { taskId }))).rejects.toThrow(/has ended/);
    const [open] = (await runner.resume({ userId: 'a2a', sessionId: taskId }).result()).interrupts;
    const resumed = await runner.resume({ userId: 'a2a', sessionId: taskId, values: { [open?.id as string]: true } }).result();
    expect(resumed.status).toBe('completed');
    expect(deployments.count).toBe(1);
  });

  it('two answers racing on one question: one resumes the run, the other is refused; the tool runs once', async () => {
    const deployments: Deployments = { count: 0 };
    const endpoint = await serve(approvalRunner(deployments));
    const client = await a2aClient(endpoint.url);
    const asked = await client.sendMessage(send('Deploy v2'));
    const taskId = 'id' in asked ? asked.id : '';
    const answers = await Promise.allSettled([client.sendMessage(send('yes', { taskId })), client.sendMessage(send('yes', { taskId }))]);
    expect(answers.map((a) => a.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(deployments.count).toBe(1);
  });

  it('a run that fails ends the task failed, saying why; a2aAgentTool gives the calling model that as a tool error', async () => {
    const endpoint = await serve(failingRunner());
    const client = await a2aClient(endpoint.url);
    const events = await collect(client.sendMessageStream(send('Do it')));
    expect(labels(events).at(-1)).toBe('status:failed');

    const model = new ScriptedModel({
      respond: (request) => {
        const result = request.messages.at(-1)?.content.find((b) => b.type === 'tool_result');
        return result?.type === 'tool_result'
          ? `tool said: ${String(result.output)}`
          : callTools({ name: 'broken', args: { input: 'Do it' } });
      },
    });
    const local = new Runner({
      agent: new ReActAgent({ name: 'caller', description: 'Calls', model, tools: [a2aAgentTool(endpoint.url, { name: 'broken' })] }),
      appName: 'local',
    });
    const result = await local.run({ userId: 'u', input: 'go' }).result();
    expect(result.status).toBe('completed');
    expect(result.output).toMatch(/A2aError|ended failed/);
  });
});

/** One raw JSON-RPC call: the error codes are what any A2A client (not only the SDK's) reads. */
async function rpc(url: string, method: string, params: unknown): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
}
const userMessage = (text: string, taskId?: string) => ({
  message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...(taskId ? { taskId } : {}) },
});

describe('a2aServer: JSON-RPC error codes', () => {
  it('an empty message is invalid params (-32602) and starts no task', async () => {
    const store = new InMemorySessionStore();
    const endpoint = await serve(approvalRunner({ count: 0 }, store));
    const reply = await rpc(endpoint.url, 'SendMessage', userMessage('  '));
    expect(reply.error?.code).toBe(-32602);
    expect(reply.error?.message).toMatch(/no text/);
    expect((await store.list({ appName: 'a2a-test', userId: 'a2a' })).sessions).toHaveLength(0);
  });

  it('an answer that does not fit an input-required question is invalid params (-32602); the question stays open', async () => {
    const deployments: Deployments = { count: 0 };
    const endpoint = await serve(approvalRunner(deployments));
    const asked = await rpc(endpoint.url, 'SendMessage', userMessage('Deploy v2'));
    const task = (asked.result as { task: { id: string; status: { state: string } } }).task;
    expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
    const wrong = await rpc(endpoint.url, 'SendMessage', userMessage('perhaps', task.id));
    expect(wrong.error?.code).toBe(-32602);
    expect(wrong.error?.message).toMatch(/asks for an approval/);
    const right = await rpc(endpoint.url, 'SendMessage', userMessage('yes', task.id));
    expect((right.result as { task: { status: { state: string } } }).task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(deployments.count).toBe(1);
  });

  it('an unknown task id is task-not-found (-32001) for GetTask and CancelTask', async () => {
    const endpoint = await serve(approvalRunner({ count: 0 }));
    for (const method of ['GetTask', 'CancelTask']) {
      const reply = await rpc(endpoint.url, method, { id: 'no-such-task' });
      expect(reply.error?.code, method).toBe(-32001);
      expect(reply.error?.message, method).toMatch(/no task "no-such-task"/);
    }
  });
});
