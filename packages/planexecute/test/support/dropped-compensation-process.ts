// A process for the dropped-step compensation crash tests: a plan–execute run (compensateDropped) whose
// one step books a flight, then a hotel, then runs out of iterations; the replanner answers and the
// failed step's bookings are undone, hotel then flight. In `run` mode the flight's compensation prints
// "stopped" and waits to be killed before it does anything; in `resume` mode the session is resumed and
// the run finished. Every booking, cancellation and planner/replanner call that took effect is appended
// to the notes file. Run with TSX_TSCONFIG_PATH=tsconfig.tests.json:
//   node --import tsx dropped-compensation-process.ts file <dir> - <notes> run|resume <sessionId>
//   node --import tsx dropped-compensation-process.ts pg <connectionString> <schema> <notes> run|resume <sessionId>
import { appendFileSync, writeSync } from 'node:fs';
import { z } from 'zod';
import { FileSessionStore, Runner, tool, type SessionStore } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { createExecutor, createPlanExecuteAgent, createPlanner, createReplanner } from '@replan/planexecute';

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
