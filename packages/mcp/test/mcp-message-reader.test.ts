import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { describe, expect, it } from 'vitest';
import { BoundedMessageReader, idOf, TOO_LARGE_CODE } from '../src/client/mcp-message-reader.js';

const reader = (limit: number) => new BoundedMessageReader(limit, deserializeMessage);
const line = (message: unknown) => Buffer.from(`${JSON.stringify(message)}\n`);
const request = (id: number) => ({ jsonrpc: '2.0' as const, id, method: 'tools/call', params: { name: 't' } });
const all = (r: BoundedMessageReader) => {
  const out = [];
  for (let m = r.readMessage(); m !== null; m = r.readMessage()) out.push(m);
  return out;
};
/** Feeds `bytes` in chunks of `size`, as a pipe delivers them. */
const feed = (r: BoundedMessageReader, bytes: Buffer, size = 4096) => {
  for (let i = 0; i < bytes.length; i += size) r.append(bytes.subarray(i, i + size));
};

describe('BoundedMessageReader', () => {
  it('reads messages split across chunks and several in one chunk, with or without \\r', () => {
    const r = reader(1024);
    feed(r, Buffer.concat([line({ jsonrpc: '2.0', id: 1, result: {} }), Buffer.from('{"jsonrpc":"2.0","method":"x"}\r\n')]), 7);
    expect(all(r)).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', method: 'x' },
    ]);
  });

  it('answers an oversize answer (id last, as the TypeScript SDK writes it) with an error for its request, then reads on', () => {
    const r = reader(1000);
    r.sent(request(7));
    r.sent(request(8));
    const big = line({ result: { content: [{ type: 'text', text: 'x'.repeat(50_000) }] }, jsonrpc: '2.0', id: 7 });
    feed(r, Buffer.concat([big, line({ result: { ok: true }, jsonrpc: '2.0', id: 8 })]), 300);
    const [stand_in, next] = all(r);
    expect(stand_in).toMatchObject({ id: 7, error: { code: TOO_LARGE_CODE, data: { bytes: big.length - 1, limit: 1000 } } });
    expect(next).toEqual({ result: { ok: true }, jsonrpc: '2.0', id: 8 });
  });

  it('finds the id first (as Python writes it), and a string id', () => {
    expect(idOf('{"jsonrpc":"2.0","id":"a-1","result":{"content":[', 'xxxxxx"}]}}')).toBe('a-1');
    expect(idOf('{"id":3,"jsonrpc":"2.0","result":', '"}]}}')).toBe(3);
    // an id inside the result is not the answer's
    expect(idOf('{"result":{"content":[{"id":5', '"x","id":5}]}}')).toBeUndefined();
    // a request or notification from the server is no answer
    expect(idOf('{"method":"sampling/createMessage","params":{', '"jsonrpc":"2.0","id":2}')).toBeNull();
  });

  it('gives an oversize answer whose id it cannot see to the only open request', () => {
    const r = reader(100);
    r.sent(request(4));
    feed(r, Buffer.from(`{"result":"${'y'.repeat(500)}","id":4,"extra":1}\n`), 64);
    expect(all(r)).toMatchObject([{ id: 4, error: { code: TOO_LARGE_CODE } }]);
  });

  it('throws (for the transport to report) on an oversize message that answers no open request, and reads on', () => {
    const r = reader(100);
    r.sent(request(1));
    r.sent(request(2));
    r.sent({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } });
    feed(r, Buffer.from(`{"method":"notifications/message","params":{"data":"${'z'.repeat(500)}"},"jsonrpc":"2.0"}\n`));
    feed(r, line({ result: {}, jsonrpc: '2.0', id: 9 }));
    expect(() => r.readMessage()).toThrow(/over the limit of 100 bytes.*maxMessageBytes/);
    expect(r.readMessage()).toEqual({ result: {}, jsonrpc: '2.0', id: 9 });
  });
});
