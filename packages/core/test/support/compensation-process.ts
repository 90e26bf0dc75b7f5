// A process for the compensation crash tests: books flight, hotel and car on a durable store, then
// cancels the run with `compensate: true`. In `run` mode the flight's compensation (the last one:
// car, hotel, flight) prints "stopped" and waits to be killed before it does anything; in `resume`
// mode the session is resumed and the compensation finished. Every booking and every cancellation
// that took effect is appended to the notes file. Run with TSX_TSCONFIG_PATH=tsconfig.tests.json:
//   node --import tsx compensation-process.ts file <dir> - <notes> run|resume <sessionId>
//   node --import tsx compensation-process.ts pg <connectionString> <schema> <notes> run|resume <sessionId>
import { writeSync } from 'node:fs';
import { ReActAgent, Runner, type Run } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { noteTo, openProcessStore, processBooking } from './process-bookings.js';

const [kind, location, schema, notes, mode, sessionId] = process.argv.slice(2) as [string, string, string, string, string, string];
const booking = (what: string) => processBooking(what, mode, noteTo(notes));

const store = await openProcessStore(kind, location, schema);
let run: Run | undefined;
const model = new ScriptedModel({
  responses: [
    callTools({ name: 'book_flight', id: 'f' }),
    callTools({ name: 'book_hotel', id: 'h' }),
    callTools({ name: 'book_car', id: 'c' }),
    async () => {
      run?.abort({ compensate: true }); // the user cancels as the trip is summed up
      return new Promise<never>(() => undefined);
    },
  ],
});
const runner = new Runner({
  agent: new ReActAgent({ name: 'travel', model, tools: [booking('flight'), booking('hotel'), booking('car')] }),
  appName: 'trips',
  sessionStore: store,
});
run = mode === 'run' ? runner.run({ userId: 'u', sessionId, input: 'book a trip' }) : runner.resume({ userId: 'u', sessionId });
const result = await run.result();
await store.close?.();
writeSync(1, `${JSON.stringify({ status: result.status, compensation: result.compensation, error: result.error?.message })}\n`);
