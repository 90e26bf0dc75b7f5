// A process for the compensation crash tests: books flight, hotel and car on a durable store, then
// cancels the run with `compensate: true`. In `run` mode the flight's compensation (the last one:
// car, hotel, flight) prints "stopped" and waits to be killed before it does anything; in `resume`
// mode the session is resumed and the compensation finished. Every booking and every cancellation
// that took effect is appended to the notes file. Run with TSX_TSCONFIG_PATH=tsconfig.tests.json:
//   node --import tsx compensation-process.ts file <dir> - <notes> run|resume <sessionId>
//   node --import tsx compensation-process.ts pg <connectionString> <schema> <notes> run|resume <sessionId>
import { appendFileSync, writeSync } from 'node:fs';
import { z } from 'zod';
import { FileSessionStore, ReActAgent, Runner, tool, type Run, type SessionStore } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';

const [kind, location, schema, notes, mode, sessionId] = process.argv.slice(2) as [string, string, string, string, string, string];
const note = (line: string) => appendFileSync(notes, `${line}\n`);

async function openStore(): Promise<SessionStore> {
  if (kind === 'file') return new FileSessionStore({ dir: location });
  const { PostgresSessionStore } = await import('@replan/postgres');
  return new PostgresSessionStore({ connectionString: location, schema });
}

const booking = (what: string) =>
  tool({
    name: `book_${what}`,
    description: `Books a ${what}.`,
    parameters: z.object({}),
    execute: (_args, ctx) => {
      note(`book ${what}`);
      return { ref: `${what}-${ctx.toolCallId}` };
    },
    compensate: (_args, result, ctx) => {
      if (mode === 'run' && what === 'flight') {
        writeSync(1, 'stopped\n');
        // Blocks without spinning until the test kills the process; gone after 60 s regardless.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
        process.exit(3);
      }
      note(`cancel ${what} ${(result as { ref: string }).ref} ${ctx.idempotencyKey}`);
      return { cancelled: (result as { ref: string }).ref };
    },
  });

const store = await openStore();
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
