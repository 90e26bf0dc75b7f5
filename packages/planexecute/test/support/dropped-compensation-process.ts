// A process for the dropped-step compensation crash tests: a plan–execute run (compensateDropped) whose
// one step books a flight, then a hotel, then runs out of iterations; the replanner answers and the
// failed step's bookings are undone, hotel then flight. In `run` mode the flight's compensation prints
// "stopped" and waits to be killed before it does anything; in `resume` mode the session is resumed and
// the run finished. Every booking, cancellation and planner/replanner call that took effect is appended
// to the notes file. Run with TSX_TSCONFIG_PATH=tsconfig.tests.json:
//   node --import tsx dropped-compensation-process.ts file <dir> - <notes> run|resume <sessionId>
//   node --import tsx dropped-compensation-process.ts pg <connectionString> <schema> <notes> run|resume <sessionId>
import { writeSync } from 'node:fs';
import { Runner } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { createExecutor, createPlanExecuteAgent, createPlanner, createReplanner } from '@replan/planexecute';
import { noteTo, openProcessStore, processBooking } from '../../../core/test/support/process-bookings.js';

const [kind, location, schema, notes, mode, sessionId] = process.argv.slice(2) as [string, string, string, string, string, string];
const note = noteTo(notes);
const booking = (what: string) => processBooking(what, mode, note);

const store = await openProcessStore(kind, location, schema);
const planner = new ScriptedModel({
  respond: () => {
    note('plan');
    return callTools({ name: 'plan', args: { steps: ['fly and stay'] } });
  },
});
// The step books the flight, then the hotel, and is out of iterations (2) before it answers.
const steps = new ScriptedModel({
  respond: (_request, call) => (call === 0 ? callTools({ name: 'book_flight', id: 'f' }) : callTools({ name: 'book_hotel', id: 'h' })),
});
const replanner = new ScriptedModel({
  respond: () => {
    note('replan');
    return callTools({ name: 'respond', args: { response: 'nothing booked' } });
  },
});
const agent = createPlanExecuteAgent({
  planner: createPlanner({ model: planner }),
  executor: createExecutor({ model: steps, tools: [booking('flight'), booking('hotel')], maxIterations: 2 }),
  replanner: createReplanner({ model: replanner }),
  compensateDropped: true,
});
const runner = new Runner({ agent, appName: 'trips', sessionStore: store });
const run = mode === 'run' ? runner.run({ userId: 'u', sessionId, input: 'book a trip' }) : runner.resume({ userId: 'u', sessionId });
const result = await run.result();
await store.close?.();
writeSync(1, `${JSON.stringify({ status: result.status, output: result.output, error: result.error?.message })}\n`);
