import { ReActAgent, Runner } from '@replan/core';
import { modelFor, noop } from '/work/wt/mw34/bench/react-overhead.ts';
async function framework(iterations: number) {
  const agent = new ReActAgent({ name: 'bench', model: modelFor(iterations), tools: [noop], maxIterations: iterations + 1 });
  const result = await new Runner({ agent, appName: 'bench' }).run({ userId: 'u', input: 'go' }).result();
  if (result.status !== 'completed') throw new Error(result.status);
}
for (let i = 0; i < 300; i++) await framework(50);
const t0 = performance.now();
for (let i = 0; i < 2000; i++) await framework(50);
console.log(((performance.now() - t0) / 2000 / 50 * 1000).toFixed(2), 'µs/iter');
