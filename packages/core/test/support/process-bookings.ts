// What the compensation crash processes share (compensation-process.ts, and plan–execute's
// dropped-compensation-process.ts): the store named on their command line, and booking tools that
// append what took effect to a notes file, whose flight compensation waits to be killed in `run` mode.
import { appendFileSync, writeSync } from 'node:fs';
import { z } from 'zod';
import { FileSessionStore, tool, type SessionStore, type Tool } from '@replan/core';

/** `file <dir>` or `pg <connectionString> <schema>`: the store a crash process runs on. */
export async function openProcessStore(kind: string, location: string, schema: string): Promise<SessionStore> {
  if (kind === 'file') return new FileSessionStore({ dir: location });
  const { PostgresSessionStore } = await import('@replan/postgres');
  return new PostgresSessionStore({ connectionString: location, schema });
}

/** Appends a line to the notes file: what took effect, in order, across processes. */
export const noteTo = (notes: string) => (line: string) => appendFileSync(notes, `${line}\n`);

/**
 * A `book_<what>` tool (no arguments) returning `{ ref }`. In `run` mode the flight's compensation
 * prints "stopped" and blocks until the test kills the process, before it does anything.
 */
export function processBooking(what: string, mode: string, note: (line: string) => void): Tool {
  return tool({
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
}
