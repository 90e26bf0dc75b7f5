import { readFileSync } from 'node:fs';
import { fileFromBytes, imageFromBytes, ReActAgent, Runner, tool, type SessionStore } from '@replan/core';
import { callTools, ScriptedModel } from '@replan/core/testing';
import { z } from 'zod';

/** The example's invoice, a real PNG. */
export const INVOICE_PNG = readFileSync(new URL('../../../../examples/invoice-reader/invoice.png', import.meta.url));
/** An SVG that would run script if the studio ever rendered it. */
export const HOSTILE_SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>window.__pwned=3</script></svg>');
/** HTML that would run script if the studio ever rendered it. */
export const HOSTILE_HTML = Buffer.from('<html><body><script>window.__pwned=4</script></body></html>');

/**
 * A session whose input holds the invoice PNG, an SVG image and an HTML file, and whose tool
 * returns a (different) PNG: the studio's media views and its blob route.
 */
export async function runMediaSession(store: SessionStore, appName: string, sessionId: string, image: Uint8Array = INVOICE_PNG) {
  const crop = tool({
    name: 'crop_total',
    description: 'Crops the total off an invoice image.',
    parameters: z.object({}),
    execute: () => [{ type: 'text' as const, text: 'the total line' }, imageFromBytes(INVOICE_PNG.subarray(0), { mediaType: 'image/png' })],
  });
  const model = new ScriptedModel({ responses: [callTools({ name: 'crop_total', args: {} }), 'The total due is GBP 520.80.'] });
  const runner = new Runner({ agent: new ReActAgent({ name: 'reader', model, tools: [crop] }), appName, sessionStore: store });
  const input = [
    { type: 'text' as const, text: 'What is the total of this invoice?' },
    imageFromBytes(image, { mediaType: 'image/png' }),
    imageFromBytes(HOSTILE_SVG, { mediaType: 'image/svg+xml' }),
    fileFromBytes(HOSTILE_HTML, { mediaType: 'text/html', filename: 'page.html' }),
  ];
  return runner.run({ userId: 'ana', sessionId, input }).result();
}
