import { describe, expect, it } from 'vitest';
import { recordTool } from '../child/record-tool.mjs';

/** The tool without its logs (markers and side effects are not what this checks). */
const record = recordTool(() => undefined, { attempt: () => undefined, applyOnce: () => true });

/** Runs one call (the tool's `execute` may return a value or a promise). */
const call = (args: Record<string, unknown>, callId: string) => Promise.resolve(record.execute(args as never, ctxFor(callId)));

const ctxFor = (callId: string) => ({ toolCallId: callId, idempotencyKey: `s:${callId}`, state: { set: () => undefined } }) as never;

/** Holds the thread, as a loaded machine does between starting one tool call and the next. */
const stall = (ms: number) => {
  const until = Date.now() + ms;
  while (Date.now() < until);
};

describe('the record tool of the kill scenarios (child/record-tool.mjs)', () => {
  it("with `after`, ends after that sibling's call even when the sibling starts later than its own wait", async () => {
    const ended: string[] = [];
    const beta = call({ item: 'beta', ms: 20, after: 'beta-echo' }, 'b-t1c1').then(() => ended.push('beta'));
    stall(60); // the short call starts after the long one's 20 ms are over
    const echo = call({ item: 'beta-echo', ms: 3 }, 'b-t1c2').then(() => ended.push('beta-echo'));
    await Promise.all([beta, echo]);
    expect(ended).toEqual(['beta-echo', 'beta']);
  });

  it('does not wait for a sibling that does not run in this process (its result was stored before a crash)', async () => {
    await expect(call({ item: 'delta', ms: 1, after: 'not-running' }, 'd-t1c1')).resolves.toBe('ok:delta');
  });
});
