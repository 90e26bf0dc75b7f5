import { InMemorySessionStore } from '@replan/core';
import { afterEach, describe, expect, it } from 'vitest';
import { invoiceRunner, ledger } from '../../../examples/code-step/invoices.js';
import { serveStudio, type StudioHandle } from '../src/index.js';
import { statusOf } from '../src/view/session-status.js';
import { rawRequest, tokenOf } from './support/http.js';

let studio: StudioHandle | undefined;
afterEach(async () => {
  await studio?.close();
  studio = undefined;
});

async function api(method: 'GET' | 'POST', route: string, body?: unknown) {
  const url = new URL(studio?.url ?? '');
  const target = method === 'GET' ? `${url.origin}/api/${route}&token=${tokenOf(url.href)}` : `${url.origin}/api/${route}`;
  const res = await rawRequest(target, {
    method,
    headers: { 'x-replan-token': tokenOf(url.href), origin: url.origin, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: JSON.parse(res.body) as Record<string, unknown> };
}

describe('an approval inside a program, answered in the studio', () => {
  it('the session lists it (its id carries the code call and the call number); approving it finishes the program, nothing repeated', async () => {
    const store = new InMemorySessionStore();
    const runner = invoiceRunner(store);
    const before = ledger.fetched.length;
    const first = await runner.run({ userId: 'ana', sessionId: 'march', input: 'Check the March invoices.' }).result();
    expect(first.status).toBe('interrupted');
    const waiting = first.interrupts[0];
    expect(waiting?.id).toMatch(/^[^#]+#17:approval$/);
    studio = await serveStudio({ store, runners: [runner] });

    const session = await api('GET', 'session?app=invoices&user=ana&id=march');
    expect(session.status).toBe(200);
    expect(session.body.interrupts).toEqual([expect.objectContaining({ id: waiting?.id, reason: 'approval' })]);

    const notified = ledger.notified.length;
    expect((await api('POST', 'resume', { app: 'invoices', user: 'ana', id: 'march', values: { [waiting?.id ?? '']: true } })).status).toBe(
      202,
    );
    await expect
      .poll(async () => statusOf((await store.get({ appName: 'invoices', userId: 'ana', id: 'march' }))?.events ?? []).status)
      .toBe('completed');
    expect(ledger.notified.length).toBe(notified + 1);
    // The 12 invoices were fetched by the first run only: the resumed program got them from the log.
    expect(ledger.fetched.length - before).toBe(12);
  });
});
