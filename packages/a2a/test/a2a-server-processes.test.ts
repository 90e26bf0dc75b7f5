import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Task } from '@a2a-js/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { a2aClient, artifactText, collect, labels, STATES, send } from './support/a2a-client.js';

const serverScript = fileURLToPath(new URL('./support/a2a-agent-server.ts', import.meta.url));
const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Starts the server process and reads its lines: the URL first, then `started` when its tool blocks. */
async function startServer(dir: string, kind: 'blocking' | 'approval') {
  const child = spawn(process.execPath, ['--import', 'tsx', serverScript, dir, kind], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })[Symbol.asyncIterator]();
  const next = async () => JSON.parse((await lines.next()).value as string) as { url?: string; started?: boolean };
  const { url } = await next();
  return { child, url: url as string, next };
}

async function killed(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

const newDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'replan-a2a-'));
  dirs.push(dir);
  return dir;
};

describe('a2aServer restarted (a child process on the file store)', () => {
  it('tasks/resubscribe after a restart replays the task from the log and continues the run that was cut off', async () => {
    const dir = newDir();
    const first = await startServer(dir, 'blocking');
    const stream = (await a2aClient(first.url)).sendMessageStream(send('Wait', { contextId: 'user-1' }));
    const head = await stream.next();
    const taskId = head.value?.payload?.$case === 'task' ? head.value.payload.value.id : '';
    expect((await first.next()).started).toBe(true);
    await killed(first.child);
    await collect({ [Symbol.asyncIterator]: () => stream }).catch(() => []);

    const second = await startServer(dir, 'blocking');
    const client = await a2aClient(second.url);
    const before = await client.getTask({ tenant: '', id: taskId });
    expect(STATES[before.status?.state ?? 0]).toBe('working');
    expect(before.contextId).toBe('user-1');
    const events = await collect(client.resubscribeTask({ tenant: '', id: taskId }));
    expect(labels(events)[0]).toBe('task:working');
    expect(labels(events).slice(-2)).toEqual(['artifact:answer', 'status:completed']);
    const after = await client.getTask({ tenant: '', id: taskId });
    expect(artifactText(after, 'answer')).toBe('Done waiting.');
  });

  it('an input-required task outlives the server: after a restart the next message answers it', async () => {
    const dir = newDir();
    const first = await startServer(dir, 'approval');
    const asked = (await (await a2aClient(first.url)).sendMessage(send('Deploy v2'))) as Task;
    expect(STATES[asked.status?.state ?? 0]).toBe('input-required');
    await killed(first.child);

    const second = await startServer(dir, 'approval');
    const client = await a2aClient(second.url);
    const replay = await collect(client.resubscribeTask({ tenant: '', id: asked.id }));
    expect(labels(replay)).toEqual(['task:input-required']);
    const done = (await client.sendMessage(send('yes', { taskId: asked.id }))) as Task;
    expect(STATES[done.status?.state ?? 0]).toBe('completed');
    expect(artifactText(done, 'answer')).toBe('Deployed v2.');
    await expect(client.sendMessage(send('yes', { taskId: asked.id }))).rejects.toThrow(/has ended/);
  });
});
