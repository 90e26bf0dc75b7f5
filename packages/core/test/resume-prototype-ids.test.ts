import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ReActAgent, ResumeError, Runner, tool } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';

const book = tool({ name: 'book', description: 'Books', parameters: z.object({}), needsApproval: true, execute: () => 'booked' });

describe('resume answers keyed by ids named like Object.prototype members', () => {
  it('"__proto__" and "constructor" as approval or value ids are unknown interrupts, not swallowed or taken as given twice', async () => {
    const model = new ScriptedModel({ responses: [callTools({ id: 'c1', name: 'book', args: {} }), 'done'] });
    const runner = new Runner({ agent: new ReActAgent({ name: 'a', model, tools: [book] }), appName: 'proto' });
    const first = await runner.run({ userId: 'u', sessionId: 's', input: 'book' }).result();
    expect(first.status).toBe('interrupted');
    const cases = [
      { approvals: JSON.parse('{"__proto__": true}') },
      { approvals: { constructor: true } },
      { values: JSON.parse('{"__proto__": "x"}') },
    ];
    for (const answers of cases) {
      const error = await runner
        .resume({ userId: 'u', sessionId: 's', ...answers })
        .result()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResumeError);
      expect((error as ResumeError).kind).toBe('unknown_interrupt');
    }
    const resumed = await runner.resume({ userId: 'u', sessionId: 's', approvals: { [first.interrupts[0]?.id as string]: true } }).result();
    expect(resumed.status).toBe('completed');
  });
});
