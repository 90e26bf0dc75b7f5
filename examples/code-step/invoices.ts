/**
 * The code-step example's world: 12 invoices, the tools a program calls, and a plan–execute agent
 * whose one step checks them all with one program (`codeTool` of `@replan/code`). The scripted models
 * play the model; the step's text and the answer are made from what the tools returned.
 * Shared by `main.ts` and the studio's screenshot of a code step.
 */
import { z } from 'zod';
import { Runner, type SessionStore, tool, type ToolResultBlock } from '@replan/core';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';
import { codeTool } from '@replan/code';

export const INVOICES: Readonly<Record<string, { supplier: string; total: number }>> = Object.fromEntries(
  Array.from({ length: 12 }, (_, i) => [`INV-${i + 1}`, { supplier: `Supplier ${(i % 4) + 1}`, total: ((i + 1) * 367) % 1000 }]),
);

/** What the tools did, to show each side effect happened once. */
export const ledger = { fetched: [] as string[], flagged: [] as string[], notified: [] as string[][] };

const fetchInvoice = tool({
  name: 'fetch_invoice',
  description: 'Fetches an invoice by id: supplier and total (EUR)',
  parameters: z.object({ id: z.string() }),
  execute: ({ id }) => {
    const invoice = INVOICES[id];
    if (!invoice) throw new Error(`no invoice ${id}`);
    ledger.fetched.push(id);
    return { id, ...invoice };
  },
});

const flagInvoice = tool({
  name: 'flag_invoice',
  description: 'Flags an invoice for review',
  parameters: z.object({ id: z.string(), reason: z.string() }),
  execute: ({ id, reason }, ctx) => {
    // Keyed by the call's idempotency key (`<session>:<codeCallId>#<n>`), as a real system would dedupe.
    if (!ledger.flagged.includes(id)) ledger.flagged.push(id);
    return { flagged: id, reason, key: ctx.idempotencyKey };
  },
});

const notifyFinance = tool({
  name: 'notify_finance',
  description: 'Emails the finance team the invoices to review',
  parameters: z.object({ ids: z.array(z.string()) }),
  // A person approves the email: the run stops inside the program, and resumes anywhere.
  needsApproval: true,
  execute: ({ ids }) => {
    ledger.notified.push(ids);
    return { sent: true, count: ids.length };
  },
});

export const STEP = 'Check the 12 invoices, flag the ones over 500 EUR and tell finance';

/** What the model writes: one program for the whole step. */
export const PROGRAM = [
  'const flagged = [];',
  'for (let n = 1; n <= 12; n++) {',
  '  const invoice = await tools.fetch_invoice({ id: `INV-${n}` });',
  '  if (invoice.total > 500) {',
  '    await tools.flag_invoice({ id: invoice.id, reason: `total ${invoice.total} EUR` });',
  '    flagged.push(invoice.id);',
  '  }',
  '}',
  'await tools.notify_finance({ ids: flagged });',
  'console.log(`checked 12 invoices, flagged ${flagged.length}`);',
  'return { flagged };',
].join('\n');

/** The step's text, from the code call's result (or its error). */
function stepText(results: readonly ToolResultBlock[]): string {
  const code = results.find((r) => r.name === 'run_code');
  if (!code) return 'The program did not run.';
  if (code.isError) return `The program failed: ${String(code.output)}`;
  const { flagged } = (code.output as { result: { flagged: string[] } }).result;
  return `Flagged ${flagged.length} of 12 invoices for review: ${flagged.join(', ')}; finance was told.`;
}

/** A runner of the invoice agent over `store` (a new one per "process": the models read the log). */
export function invoiceRunner(store: SessionStore): Runner {
  const models = scriptPlanExecute({
    plan: { steps: [STEP] },
    steps: { [STEP]: { toolCalls: [{ name: 'run_code', args: { program: PROGRAM } }], text: stepText } },
    answer: (results) => results[STEP] ?? 'Nothing was checked.',
  });
  const agent = createPlanExecuteAgent({ model: models.model, tools: [codeTool({ tools: [fetchInvoice, flagInvoice, notifyFinance] })] });
  return new Runner({ agent, appName: 'invoices', sessionStore: store });
}
