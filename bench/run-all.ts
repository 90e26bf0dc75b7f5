/** Runs every benchmark and prints Markdown to paste into docs/performance.md. */
import { reactOverhead } from './react-overhead.js';
import { observerOverhead } from './observer-overhead.js';
import { reactMemory } from './react-memory.js';
import { parallelPlans } from './parallel-plans.js';
import { planContextNeedle, planContextTokens } from './plan-context.js';
import { sessionStores } from './session-stores.js';
import { durableTools } from './durable-tools.js';
import { studioOpen } from './studio-open.js';
import { dbosWorkers } from './dbos-workers.js';
import { longStepBench } from './long-step.js';
import { promptCacheBench } from './prompt-cache.js';
import { budgetAnswer } from './budget-answer.js';
import { planReuseBench } from './plan-reuse.js';
import { memorySearch } from './memory-search.js';
import { codeStepBench } from './code-step.js';

const benches: [string, () => Promise<string>][] = [
  ['react-overhead', reactOverhead],
  ['observer-overhead', observerOverhead],
  ['react-memory', reactMemory],
  ['parallel-plans', parallelPlans],
  ['plan-context', planContextTokens],
  ['plan-context-needle', planContextNeedle],
  ['session-stores', sessionStores],
  ['durable-tools', durableTools],
  ['studio-open', studioOpen],
  ['dbos-workers', dbosWorkers],
  ['long-step', longStepBench],
  ['prompt-cache', promptCacheBench],
  ['budget-answer', budgetAnswer],
  ['plan-reuse', planReuseBench],
  ['memory-search', memorySearch],
  ['code-step', codeStepBench],
];
const only = process.argv[2];
console.log(`Node ${process.version}, ${new Date().toISOString().slice(0, 10)}\n`);
for (const [name, bench] of benches) {
  if (only && only !== name) continue;
  console.log(await bench());
  console.log();
}
