/**
 * A code step: one plan step checks 12 invoices with one JavaScript program (`codeTool` among the tools of
 * the plan–execute agent, `@replan/code`) instead of one tool call per model turn. The program's
 * last call needs a person's approval: the run stops inside the program, and a new Runner (as
 * another process would) approves it; the program re-runs from the start, every call before the
 * approval answered from the session log, so no invoice is fetched or flagged twice. Offline:
 * scripted models play the model; what the step reports comes from what the tools returned.
 * Run: pnpm build && npx tsx examples/code-step/main.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSessionStore } from '@replan/core';
import { renderRun } from '@replan/planexecute/terminal';
import { invoiceRunner, ledger } from './invoices.js';

const dir = mkdtempSync(join(tmpdir(), 'replan-code-step-'));
const session = { userId: 'ana', sessionId: 'march-invoices' };
try {
  // 1. The step runs its program until the approval of notify_finance.
  const first = await renderRun(invoiceRunner(new FileSessionStore({ dir })).run({ ...session, input: 'Check the March invoices.' }), {
    objective: 'Check the March invoices.',
    syntheticUsage: true,
  });
  const waiting = first.interrupts[0];
  console.log(`\nstopped: ${first.status}, waiting on ${waiting?.id} (${waiting?.toolName ?? waiting?.reason})`);
  console.log(
    `so far: ${ledger.fetched.length} invoice(s) fetched, ${ledger.flagged.length} flagged, finance told ${ledger.notified.length} time(s)\n`,
  );
  if (!waiting) throw new Error('the program did not stop for the approval');

  // 2. Another runner over the same files approves: the program replays to the call, which runs.
  const done = await renderRun(invoiceRunner(new FileSessionStore({ dir })).resume({ ...session, approvals: { [waiting.id]: true } }), {
    syntheticUsage: true,
  });
  console.log(`\nresumed with approval: ${done.status} — ${done.output}`);
  const once = new Set(ledger.fetched).size === ledger.fetched.length;
  console.log(`side effects: ${ledger.fetched.length} invoice(s) fetched${once ? ', each once' : ' (some twice!)'}`);
  console.log(`flagged: ${ledger.flagged.join(', ')}`);
  console.log(`finance told: ${ledger.notified.length} time(s), about ${ledger.notified.map((ids) => ids.join(', ')).join(' / ')}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
