import { describe, expect, it } from 'vitest';
import { SessionNotFoundError, SessionStoreError } from '@replan/core';
import { classifyFault, shortId, storeFault } from '../src/pg-faults.js';

const pgError = (code: string, message = 'boom') => Object.assign(new Error(message), { code });

describe('PostgreSQL fault classification', () => {
  it.each([
    ['08006', 'connection'],
    ['08001', 'connection'],
    ['57P01', 'connection'],
    ['57P02', 'connection'],
    ['57P03', 'connection'],
    ['53300', 'connection'],
    ['ECONNREFUSED', 'connection'],
    ['ECONNRESET', 'connection'],
    ['22021', 'data'],
    ['22P02', 'data'],
    ['23505', 'data'],
    ['23514', 'data'],
    ['54000', 'data'],
    ['42P01', 'other'],
    ['40P01', 'other'],
  ])('SQLSTATE / socket code %s is %s', (code, kind) => {
    expect(classifyFault(pgError(code))).toBe(kind);
  });

  it('node-postgres messages without a code: a dropped connection is the connection, anything else is not', () => {
    expect(classifyFault(new Error('Connection terminated unexpectedly'))).toBe('connection');
    expect(classifyFault(new Error('Client has encountered a connection error and is not queryable'))).toBe('connection');
    expect(classifyFault(new Error('Cannot use a pool after calling end on the pool'))).toBe('other');
    // A replan error is never the connection, whatever its message (an id may say "socket").
    expect(classifyFault(new SessionNotFoundError('app', 'u', 'Connection terminated socket'))).toBe('other');
  });

  it('cuts ids longer than 64 characters to their start and length', () => {
    expect(shortId('abc')).toBe('"abc"');
    const long = 'x'.repeat(10_000);
    expect(shortId(long)).toBe(`"${'x'.repeat(64)}…" (10000 characters)`);
  });

  it('a data fault does not advise checking the connection; a connection fault does; both cut long ids and server text', () => {
    const id = 'y'.repeat(10_000);
    const data = storeFault(pgError('22021', `invalid byte sequence ${'z'.repeat(5_000)}`), 'append to', id, 'public');
    expect(data).toBeInstanceOf(SessionStoreError);
    expect(data.kind).toBe('data');
    expect(data.message).not.toMatch(/connection/i);
    expect(data.message).toMatch(/NUL/);
    expect(data.message.length).toBeLessThan(1_000);
    const lost = storeFault(pgError('57P01', 'terminating connection due to administrator command'), 'append to', id, 'public');
    expect(lost.kind).toBe('connection');
    expect(lost.message).toMatch(/Check the connection settings and that the database is up/);
    expect(lost.message.length).toBeLessThan(1_000);
  });

  it('a lock or statement timeout says the statement was rolled back (nothing written), what holds the lock and which option bounds the wait', () => {
    for (const [code, text] of [
      ['55P03', 'canceling statement due to lock timeout'],
      ['57014', 'canceling statement due to statement timeout'],
    ] as const) {
      const fault = storeFault(pgError(code, text), 'append to', 's', 'public');
      expect(fault.kind).toBe('other');
      expect(fault.message).toMatch(/rolled back: nothing was written/);
      expect(fault.message).toMatch(/idle in transaction/);
      expect(fault.message).toMatch(/lockTimeoutMs/);
      expect(fault.message).not.toMatch(/migrate\(\)/);
    }
  });
});
