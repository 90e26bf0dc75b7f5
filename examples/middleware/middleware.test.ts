import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '@replan/core';
import { callTools, testMiddleware } from '@replan/core/testing';
import { type AuditRow, auditToolCalls } from './audit-tool-calls.js';
import { INPUT, middlewareDemo } from './middleware-demo.js';
import { redactPersonalData } from './redact-personal-data.js';

const lookup = tool({
  name: 'lookup',
  description: 'lookup',
  parameters: z.object({ q: z.string() }),
  execute: () => 'reach Bo at bo@example.org or 030 1234 5678',
});

describe('examples/middleware', () => {
  it('redactPersonalData: the model never sees an address or a number; the log keeps them', async () => {
    const run = await testMiddleware(redactPersonalData(), {
      model: [callTools({ name: 'lookup', args: { q: 'x' } }), 'done'],
      tools: [lookup],
      input: INPUT,
    });
    const shown = JSON.stringify(run.requests);
    for (const secret of ['ann.lee@example.com', '415 555 0100', 'bo@example.org', '1234 5678']) expect(shown).not.toContain(secret);
    expect(shown).toContain('[email]');
    expect(shown).toContain('[phone]');
    expect(String(run.toolResults[0]?.output)).toContain('bo@example.org'); // stored as the tool said it
  });

  it('auditToolCalls: one row per call, none again on resume', async () => {
    const rows: AuditRow[] = [];
    const ask = tool({
      name: 'ask',
      description: 'ask a human',
      parameters: z.object({}),
      execute: (_args, ctx) => ctx.interrupt<string>({ question: 'go on?' }),
    });
    const first = await testMiddleware(
      auditToolCalls((row) => void rows.push(row)),
      {
        model: [callTools({ name: 'lookup', args: { q: 'a' }, id: 'c1' }, { name: 'ask', id: 'c2' }), 'done'],
        tools: [lookup, ask],
      },
    );
    expect(first.result.status).toBe('interrupted');
    const resumed = await first.resume({ 'c2:1': 'yes' });
    expect(resumed.result.status).toBe('completed');
    // lookup is audited once (its stored result is not run again); ask when it ran with its answer.
    expect(rows.filter((r) => r.tool === 'lookup')).toHaveLength(1);
    expect(rows.map((r) => [r.tool, r.callId, r.ok])).toEqual(
      expect.arrayContaining([
        ['lookup', 'c1', true],
        ['ask', 'c2', true],
      ]),
    );
    expect(rows[0]).toEqual(expect.objectContaining({ agent: 'agent', args: { q: 'a' } }));
  });

  it('the demo: redacted, audited, cached', async () => {
    const { result, audit, shownToModel } = await middlewareDemo();
    expect(result.status).toBe('completed');
    expect(shownToModel.join('')).not.toContain('ann.lee@example.com');
    expect(audit.map((r) => r.tool)).toEqual(['find_customer']);
  });
});
