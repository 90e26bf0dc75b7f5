// One process of the kill-and-resume tests (code-resume-processes.test.ts): runs or resumes a
// ReActAgent whose one code call makes 20 tool calls. Each `step` call appends a line to the
// counts file (the side effect that must not repeat); the call `stopAt` prints "stopped" and
// hangs, for the parent to SIGKILL. Args: <file|postgres> <dir|connectionString> <schema|-> <counts> <run|resume> <sessionId> [stopAt] [approve]
import { appendFileSync } from 'node:fs';
import { FileSessionStore, ReActAgent, Runner, type SessionStore, tool } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { PostgresSessionStore } from '@replan/postgres';
import { z } from 'zod';
import { codeTool } from '@replan/code';

const [kind, where, schema, counts, mode, sessionId, stopAtText] = process.argv.slice(2);
const stopAt = stopAtText === undefined ? -1 : Number(stopAtText);

const PROGRAM =
  'const out = [];\nfor (let i = 0; i < 20; i++) {\n  const r = await tools.step({ i });\n  if (i === 9) await tools.approve({ note: "halfway" });\n  out.push(r);\n}\nreturn out;';

const step = tool({
  name: 'step',
  description: 'One step of the work.',
  parameters: z.object({ i: z.number() }),
  execute: async ({ i }, ctx) => {
    if (i === stopAt) {
      process.stdout.write('stopped\n');
      await new Promise(() => undefined); // killed here, in the middle of the call
    }
    appendFileSync(counts as string, `run ${i} ${ctx.idempotencyKey}\n`);
    return i * i;
  },
});
const approve = tool({
  name: 'approve',
  description: 'Needs a human first.',
  parameters: z.object({ note: z.string() }),
  needsApproval: true,
  execute: ({ note }) => {
    appendFileSync(counts as string, `approved ${note}\n`);
    return 'ok';
  },
});

async function main() {
  let store: SessionStore;
  if (kind === 'postgres') {
    const pg = new PostgresSessionStore({ connectionString: where as string, schema: schema as string });
    await pg.migrate();
    store = pg;
  } else store = new FileSessionStore({ dir: where as string });
  const model = new ScriptedModel({
    responses: mode === 'run' ? [callTools({ name: 'run_code', id: 'code1', args: { program: PROGRAM } })] : [],
    respond: (request) => `finished: ${JSON.stringify(request.messages.at(-1)?.content[0])}`,
  });
  const agent = new ReActAgent({ name: 'agent', model, tools: [codeTool({ tools: [step, approve] })] });
  const runner = new Runner({ agent, appName: 'code', sessionStore: store });
  const values = process.argv[9] ? { [process.argv[9]]: true } : undefined;
  const run =
    mode === 'run'
      ? runner.run({ userId: 'u', sessionId: sessionId as string, input: 'do the 20 steps' })
      : runner.resume({ userId: 'u', sessionId: sessionId as string, ...(values ? { values } : {}) });
  const result = await run.result();
  process.stdout.write(
    `${JSON.stringify({ status: result.status, interrupts: result.interrupts.map((i) => i.id), output: result.output, modelCalls: model.calls })}\n`,
  );
  await store.close?.();
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
