/**
 * Undoing steps, offline: booking tools with `compensate`. A run cancelled with
 * `run.abort({ compensate: true })` undoes its finished bookings (latest first); a replan that drops a
 * step undoes that step's bookings (`undo` in the replanner's answer). Every line below is printed
 * from what the tools returned and what the session stored. The models are scripted (`scriptPlanExecute`).
 * Run: pnpm build && npx tsx examples/compensation/main.ts
 */
import { cancelledTrip, replannedTrip, type Outcome } from './trip-undo.js';

function print(title: string, outcome: Outcome) {
  console.log(`\n== ${title}: ${outcome.result.status}${outcome.result.output ? ` — ${outcome.result.output}` : ''}`);
  for (const step of outcome.steps) console.log(`  step    ${step}`);
  for (const line of outcome.undone) console.log(`  ${line}`);
  const skipped = outcome.result.compensation?.skipped ?? [];
  if (skipped.length) console.log(`  skipped (result never stored): ${skipped.map((c) => c.callId).join(', ')}`);
  console.log(`  still booked: ${outcome.stillBooked.length ? outcome.stillBooked.join(', ') : 'nothing'}`);
}

print('cancelled with compensate', await cancelledTrip());
print('replanned, a step dropped', await replannedTrip());
