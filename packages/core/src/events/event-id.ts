import { randomFillSync } from 'node:crypto';

// Random bytes for 256 ids at a time (crypto.randomUUID keeps a cache the same way).
const pool = Buffer.alloc(16 * 256);
let used = pool.length;
const codes: number[] = new Array(36);
const HEX = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

/**
 * A random (version 4) UUID, as `crypto.randomUUID()` makes, built as one flat string. Node joins
 * randomUUID's 36 characters from about twenty pieces, which V8 keeps as a tree of them: ~490
 * bytes per id instead of ~65, and every stored event keeps its id for as long as its session is
 * in memory (a 50-iteration run has about a hundred; bench/react-overhead.ts). As fast.
 */
export function newEventId(): string {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  let o = 0;
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) codes[o++] = 45; // '-'
    let byte = pool[used + i] as number;
    if (i === 6)
      byte = (byte & 0x0f) | 0x40; // version 4
    else if (i === 8) byte = (byte & 0x3f) | 0x80; // RFC 4122 variant
    codes[o++] = HEX[byte >> 4] as number;
    codes[o++] = HEX[byte & 15] as number;
  }
  used += 16;
  return String.fromCharCode.apply(null, codes);
}
