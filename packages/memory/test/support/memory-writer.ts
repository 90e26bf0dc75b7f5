// A child process for file-memory-store-processes.test.ts: puts `count` memories (0: until killed)
// into one scope of the FileMemoryStore in `dir`, 10 in flight at a time, printing each id once its
// put has returned (so the parent knows which puts were acknowledged).
import { FileMemoryStore } from '@replan/memory';

const [dir, tag, countArg] = process.argv.slice(2);
const count = Number(countArg);
const store = new FileMemoryStore({ dir: dir! });
const scope = { appName: 'app', userId: 'shared' };

for (let i = 0; count === 0 || i < count; i += 10) {
  const batch = Array.from({ length: count === 0 ? 10 : Math.min(10, count - i) }, (_, j) =>
    store.put({ scope, kind: 'fact', text: `${tag} memory ${i + j} ${'x'.repeat(200)}`, metadata: { tag, n: i + j } }),
  );
  for (const item of await Promise.all(batch)) process.stdout.write(`${item.id}\n`);
}
