import { writeHeapSnapshot } from 'node:v8';
import { InMemorySessionStore, ReActAgent, Runner } from '@replan/core';
import { modelFor, noop } from './react-overhead.js';
const gc = (globalThis as { gc: () => void }).gc;
const store = new InMemorySessionStore();
const once = async () => {
  const agent = new ReActAgent({ name: 'bench', model: modelFor(50), tools: [noop], maxIterations: 51 });
  await new Runner({ agent, appName: 'bench', sessionStore: store }).run({ userId: 'u', input: 'go' }).result();
};
for (let i = 0; i < 5; i++) await once();
gc(); gc();
writeHeapSnapshot('/tmp/mw34/a.heapsnapshot');
for (let i = 0; i < 100; i++) await once();
gc(); gc();
writeHeapSnapshot('/tmp/mw34/b.heapsnapshot');
await store.list({ appName: 'bench', userId: 'u', limit: 1 });
