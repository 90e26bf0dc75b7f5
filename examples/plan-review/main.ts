/**
 * Plan review, offline: a plan–execute agent stops at its plan, and a person approves it, edits it
 * or rejects it with feedback before any step runs. Each answer is given by a new Runner over a
 * file store, as a new process would. The models are scripted (`scriptPlanExecute`).
 * Run: pnpm build && npx tsx examples/plan-review/main.ts
 */
import { planReviewDemo } from './trip-review.js';

for (const outcome of await planReviewDemo()) {
  console.log(`\n== ${outcome.answer}`);
  for (const plan of outcome.reviewed) console.log(`  reviewed: ${plan.join(' → ')}`);
  console.log(`  ran:      ${outcome.ran.join(' → ')}`);
  console.log(`  answer:   ${outcome.output}`);
}
