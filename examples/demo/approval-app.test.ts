/**
 * The approval demo `pnpm studio` opens on: approving the waiting payment must end in "sent",
 * rejecting it in "not sent" (the answers the studio shows after its Approve and Reject buttons,
 * which resume with `true` and `{ approved: false, message }`).
 * Run: pnpm exec vitest run --project examples demo
 */
import { InMemorySessionStore } from '@replan/core';
import { describe, expect, it } from 'vitest';
import { approvalRunner } from './approval-app.js';

async function answerAfter(value: unknown): Promise<{ output: string | undefined; status: string }> {
  const runner = approvalRunner(new InMemorySessionStore());
  const asked = await runner.run({ userId: 'demo', sessionId: 'approval', input: 'Send the yearly cost report to finance.' }).result();
  expect(asked.status).toBe('interrupted');
  const [interrupt] = asked.interrupts;
  expect(interrupt).toMatchObject({ reason: 'approval', toolName: 'send_report' });
  const done = await runner.resume({ userId: 'demo', sessionId: 'approval', values: { [interrupt!.id]: value } }).result();
  return { output: done.output, status: done.status };
}

describe('the approval demo', () => {
  it('approved: the report went out, and the answer says so', async () => {
    expect(await answerAfter(true)).toEqual({ status: 'completed', output: 'The yearly cost report went to finance@example.com.' });
  });

  it('rejected: the report did not go out, and the answer says so', async () => {
    const rejected = await answerAfter({ approved: false, message: 'Not before the audit' });
    expect(rejected).toEqual({ status: 'completed', output: 'The report was not sent: the approval was refused.' });
  });
});
