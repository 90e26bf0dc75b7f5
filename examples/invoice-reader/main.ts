/**
 * An image in, a plan over it: a plan–execute agent checks a scanned invoice (invoice.png), offline.
 * Run: pnpm build && npx tsx examples/invoice-reader/main.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readInvoice } from './invoice-reader.js';

const dir = await mkdtemp(join(tmpdir(), 'replan-invoice-'));
try {
  const reading = await readInvoice(dir);
  console.log(`status: ${reading.status}`);
  console.log('plan:');
  for (const [i, step] of reading.ran.entries()) console.log(`  ${i + 1}. ${step}`);
  console.log(`answer: ${reading.answer}`);
  console.log(
    `the planner saw the invoice in ${reading.plannerSawImage} request(s); the executor in ${reading.executorSawImage} of ${reading.executorRequests}`,
  );
  console.log(`the session log is ${reading.logBytes} bytes; the image is kept once beside it: <id>.blobs/${reading.blobs.join(', ')}`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
