import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { FileSessionStore, imageFromFile, type ModelRequest, Runner, tool, toolResultsOf } from '@replan/core';
import { createPlanExecuteAgent, type DefaultPlan } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';
import { z } from 'zod';

/** The scanned invoice this example reads: a 466×256 PNG beside this file. */
export const INVOICE_PATH = new URL('./invoice.png', import.meta.url).pathname;

/** Adds amounts exactly (in pence), so the check does not trust the model's arithmetic. */
const addAmounts = tool({
  name: 'add_amounts',
  description: 'Adds money amounts (in pounds, two decimals) and returns the sum.',
  parameters: z.object({ amounts: z.array(z.number()) }),
  execute: ({ amounts }) => ({ sum: amounts.reduce((total, a) => total + Math.round(a * 100), 0) / 100 }),
});

/** The plan the offline planner writes over the image, and what the executor answers per step. */
const plan: DefaultPlan = {
  steps: [
    'Read the line items, VAT and printed total off the invoice image',
    'Add the line items and VAT',
    'Compare the sum with the printed total',
  ],
};
const steps = {
  [plan.steps[0] as string]:
    'Invoice INV-2026-0042 from Northwind Paper Co.: A4 paper 240.00, toner 179.00, delivery 15.00; VAT 86.80; printed total 520.80 GBP.',
  [plan.steps[1] as string]: {
    toolCalls: [{ name: 'add_amounts', args: { amounts: [240, 179, 15, 86.8] } }],
    text: 'The items and VAT add up to 520.80.',
  },
  [plan.steps[2] as string]: 'The sum, 520.80, equals the printed total: the invoice is consistent.',
};

export interface InvoiceReading {
  readonly status: string;
  readonly answer: string | undefined;
  /** The steps that ran, in order. */
  readonly ran: readonly string[];
  /** What `add_amounts` returned. */
  readonly sums: readonly unknown[];
  /** How many planner and executor requests carried the invoice as an image block (its exact bytes). */
  readonly plannerSawImage: number;
  readonly executorSawImage: number;
  readonly executorRequests: number;
  /** The session's log and its blob: the bytes are kept once, beside the log, out of it. */
  readonly logBytes: number;
  readonly blobs: readonly string[];
  /** The SHA-256 of the invoice, the blob's name. */
  readonly invoiceSha256: string;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** How many requests hold an image block whose bytes are the invoice's. */
function sawInvoice(requests: readonly ModelRequest[], invoiceSha: string): number {
  return requests.filter((request) =>
    request.messages.some((m) =>
      m.content.some(
        (b) =>
          b.type === 'image' && b.mediaType === 'image/png' && b.data !== undefined && sha256(Buffer.from(b.data, 'base64')) === invoiceSha,
      ),
    ),
  ).length;
}

/**
 * Reads the invoice with a plan–execute agent over a file store in `dir`, offline: the models are
 * scripted by role and step (`scriptPlanExecute`), never by prompt text. The image goes in as a
 * content block of the run's input; the store keeps its bytes as a blob and every model call that
 * needs them — the planner's and each step's — gets them back, read just before the call.
 */
export async function readInvoice(dir: string): Promise<InvoiceReading> {
  const invoice = await imageFromFile(INVOICE_PATH);
  const invoiceSha256 = sha256(await readFile(INVOICE_PATH));
  // After each step the replanner keeps the rest of the plan, then answers.
  const replans = [{ steps: plan.steps.slice(1) }, { steps: plan.steps.slice(2) }];
  const models = scriptPlanExecute({
    plan,
    steps,
    replans,
    answer: 'Invoice INV-2026-0042 totals 520.80 GBP, and its lines add up to it.',
  });
  const agent = createPlanExecuteAgent({ model: models.model, tools: [addAmounts] });
  const store = new FileSessionStore({ dir });
  const runner = new Runner({ agent, appName: 'invoices', sessionStore: store });
  const result = await runner
    .run({
      userId: 'accounts',
      sessionId: 'inv-0042',
      input: [{ type: 'text', text: 'Check this invoice: do its lines add up to its total?' }, invoice],
    })
    .result();
  const session = await store.get({ appName: 'invoices', userId: 'accounts', id: 'inv-0042' });
  const ran = ((session?.state.ExecutedSteps ?? []) as { step: string }[]).map((s) => s.step);
  const sessionDir = join(dir, 'sessions', 'invoices', 'accounts');
  return {
    status: result.status,
    answer: result.output,
    ran,
    sums: (session?.events ?? []).flatMap((e) => toolResultsOf(e.message)).map((r) => r.output),
    plannerSawImage: sawInvoice(models.plannerModel.requests, invoiceSha256),
    executorSawImage: sawInvoice(models.executorModel.requests, invoiceSha256),
    executorRequests: models.executorModel.requests.length,
    logBytes: (await stat(join(sessionDir, 'inv-0042.jsonl'))).size,
    blobs: await readdir(join(sessionDir, 'inv-0042.blobs')),
    invoiceSha256,
  };
}
