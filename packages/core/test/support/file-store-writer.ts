// A second process for the file store tests: appends to one session until told to stop.
// Run: node --import tsx file-store-writer.ts <dir> <sessionId> <tag> <wins|forever> [padBytes]
import { ConcurrentUpdateError } from '../../src/errors/session-errors.js';
import { FileSessionStore } from '../../src/sessions/file-session-store.js';

const [dir, id, tag, target, pad = '0'] = process.argv.slice(2) as [string, string, string, string, string?];
const store = new FileSessionStore({ dir });
const key = { appName: 'app', userId: 'u1', id };
const wanted = target === 'forever' ? Infinity : Number(target);
let wins = 0;
let conflicts = 0;
let n = 0;
while (wins < wanted) {
  const session = await store.get(key);
  if (!session) throw new Error(`session ${id} is missing`);
  // Batches of 1 to 3 events, so torn and interleaved multi-line appends would show.
  const size = 1 + (n % 3);
  const events = Array.from({ length: size }, (_, i) => ({
    id: `${tag}-${n}-${i}`,
    invocationId: tag,
    author: tag,
    path: tag,
    timestamp: Date.now(),
    meta: { pad: 'p'.repeat(Number(pad)) },
  }));
  n++;
  try {
    await store.appendEvents(key, events, { expectedVersion: session.version });
    wins++;
    if (target === 'forever') process.stdout.write(`${session.version + size}\n`);
  } catch (error) {
    if (!(error instanceof ConcurrentUpdateError)) throw error;
    conflicts++;
  }
}
process.stdout.write(JSON.stringify({ wins, conflicts }));
