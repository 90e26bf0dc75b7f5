// The real SDK client over loopback, and the small helpers the tests read its answers with.
import type { Message, Part, StreamResponse, Task } from '@a2a-js/sdk';
import { type Client, ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from '@a2a-js/sdk/client';

/** A client for the agent at `url`; with `token`, every JSON-RPC request carries it. */
export async function a2aClient(url: string, token?: string): Promise<Client> {
  const fetchImpl: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    if (token !== undefined) headers.set('authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory({ fetchImpl })] }),
  );
  return factory.createFromUrl(url);
}

/** A send request for a user message: a new task (no `taskId`), or a reply on one. */
export function send(parts: Part[] | string, ids: { taskId?: string; contextId?: string } = {}) {
  const message: Message = {
    messageId: crypto.randomUUID(),
    contextId: ids.contextId ?? '',
    taskId: ids.taskId ?? '',
    role: 1 as Message['role'],
    parts: typeof parts === 'string' ? [text(parts)] : parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
  return { tenant: '', message, configuration: undefined, metadata: undefined };
}

export const text = (value: string): Part => ({
  content: { $case: 'text', value },
  metadata: undefined,
  filename: '',
  mediaType: 'text/plain',
});
export const data = (value: unknown): Part => ({
  content: { $case: 'data', value },
  metadata: undefined,
  filename: '',
  mediaType: 'application/json',
});

/** The states the SDK numbers, by name, for readable assertions. */
export const STATES: Record<number, string> = {
  2: 'working',
  3: 'completed',
  4: 'failed',
  5: 'canceled',
  6: 'input-required',
  7: 'rejected',
};

/** A stream's updates, each as a short label: `task:<state>`, `status:<state>`, `artifact:<id>`. */
export function labels(events: readonly StreamResponse[]): string[] {
  return events.map((e) => {
    const p = e.payload;
    if (p?.$case === 'task') return `task:${STATES[p.value.status?.state ?? 0]}`;
    if (p?.$case === 'statusUpdate') return `status:${STATES[p.value.status?.state ?? 0]}`;
    if (p?.$case === 'artifactUpdate') return `artifact:${p.value.artifact?.artifactId}`;
    return 'message';
  });
}

export async function collect(stream: AsyncIterable<StreamResponse>): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** The text of an artifact of a task. */
export function artifactText(task: Task, id: string): string {
  const found = task.artifacts.find((a) => a.artifactId === id);
  return (found?.parts ?? []).map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
}

/** The task id of a stream's first event. */
export function taskIdOf(events: readonly StreamResponse[]): string {
  const first = events[0]?.payload;
  if (first?.$case !== 'task') throw new Error('the stream did not start with a task');
  return first.value.id;
}
