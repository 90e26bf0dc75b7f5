/**
 * Plan review, offline: a plan–execute agent stops at its plan, and a person approves it, edits it
 * or rejects it with feedback before any step runs. Each answer is given by a new Runner over a
 * file store, as a new process would. The models are scripted (`scriptPlanExecute`). Then plan
 * grants (`review: { plan: true, grants: true }`): approving a plan approves the tool calls its
 * steps name, and a call outside the grant asks again.
 * Run: pnpm build && npx tsx examples/plan-review/main.ts
 */
import { planGrantDemo } from './trip-grant.js';
import { planReviewDemo } from './trip-review.js';

for (const outcome of await planReviewDemo()) {
  console.log(`\n== ${outcome.answer}`);
  for (const plan of outcome.reviewed) console.log(`  reviewed: ${plan.join(' → ')}`);
  console.log(`  ran:      ${outcome.ran.join(' → ')}`);
  console.log(`  answer:   ${outcome.output}`);
}

for (const outcome of await planGrantDemo()) {
  console.log(`\n== grant: the executor books the ${outcome.booked}`);
  console.log(`  asked:    ${outcome.asked.join(', ')}`);
  console.log(`  granted:  ${outcome.grantedBy ? `by plan review ${outcome.grantedBy}` : 'no (outside the grant: asked again)'}`);
  console.log(`  answer:   ${outcome.output}`);
}
