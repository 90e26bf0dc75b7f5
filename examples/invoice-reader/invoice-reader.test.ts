import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readInvoice } from './invoice-reader.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('examples/invoice-reader', () => {
  it('plans over the invoice image, every model call gets its bytes, and the store keeps them once, out of the log', async () => {
    dir = await mkdtemp(join(tmpdir(), 'replan-invoice-test-'));
    const reading = await readInvoice(dir);
    expect(reading.status).toBe('completed');
    expect(reading.ran).toEqual([
      'Read the line items, VAT and printed total off the invoice image',
      'Add the line items and VAT',
      'Compare the sum with the printed total',
    ]);
    expect(reading.sums).toEqual([{ sum: 520.8 }]);
    expect(reading.answer).toMatch(/520\.80 GBP/);
    // the planner, and the executor at every turn of every step, got the image itself
    expect(reading.plannerSawImage).toBe(1);
    expect(reading.executorRequests).toBe(4);
    expect(reading.executorSawImage).toBe(4);
    // one blob, named by the invoice's SHA-256; the log (~14 kB of events) does not hold the image (~28 kB as base64)
    expect(reading.blobs).toEqual([reading.invoiceSha256]);
    expect(reading.logBytes).toBeLessThan(20_000);
  });
});
