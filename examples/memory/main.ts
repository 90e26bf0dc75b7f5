/**
 * Long-term memory, offline: three sessions of one user. The first plans a trip and keeps a fact
 * and its plan; the second recalls the fact; the third reuses the plan without calling the
 * planner. Sessions and memories are files in a temporary directory; the models are scripted.
 * Run: pnpm build && npx tsx examples/memory/main.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tripMemoryDemo } from './trip-memory.js';

const dir = await mkdtemp(join(tmpdir(), 'replan-memory-example-'));
try {
  const { first, second, third } = await tripMemoryDemo(dir);
  console.log('== session 1: plan a trip');
  console.log(`  answer:  ${first.output}`);
  console.log(`  kept:    ${first.facts.map((f) => `fact "${f}"`).join(', ')} and ${first.plans} plan`);
  console.log('== session 2: a new question, the fact recalled');
  console.log(`  recalled: ${second.recalled.join('; ')}`);
  console.log(`  answer:   ${second.output}`);
  console.log('== session 3: the same trip again');
  console.log(`  planner calls: ${third.plannerCalls} (plan reused from memory ${third.reusedFrom})`);
  console.log(`  answer:        ${third.output}`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
