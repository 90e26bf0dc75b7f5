// A second process for the shared-state crash test: appends events that set `user:credits` to
// session "a" until killed, printing each acknowledged value.
// Run: node --import tsx shared-state-writer.ts <dir> <padBytes>
import { FileSessionStore } from '../../src/sessions/file-session-store.js';

const [dir, pad = '0'] = process.argv.slice(2) as [string, string?];
const store = new FileSessionStore({ dir });
const key = { appName: 'app', userId: 'u1', id: 'a' };
for (;;) {
  const session = await store.get(key);
  if (!session) throw new Error('session a is missing');
  const credits = session.version + 1;
  const event = {
    id: `credits-${credits}-${Math.random().toString(36).slice(2)}`,
    invocationId: 'inv',
    author: 'tool',
    path: 'tool',
    timestamp: Date.now(),
    actions: { stateDelta: { 'user:credits': credits } },
    meta: { pad: 'p'.repeat(Number(pad)) },
  };
  await store.appendEvents(key, [event], { expectedVersion: session.version });
  process.stdout.write(`${credits}\n`);
}
