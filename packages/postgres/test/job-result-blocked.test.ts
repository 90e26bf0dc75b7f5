import type { RunResult } from '@replan/core';
import { describe, expect, it } from 'vitest';
import { decodeJobResult, encodeJobResult, jobStatusOf } from '../src/queue/job-result.js';

describe('a blocked run in the run queue', () => {
  it('completes the job (blocked is final) and keeps the guardrail through the stored result', () => {
    expect(jobStatusOf('blocked')).toBe('completed');
    const blocked: RunResult = {
      status: 'blocked',
      output: undefined,
      sessionId: 's',
      invocationId: 'i',
      interrupts: [],
      usage: { inputTokens: 0, outputTokens: 0 },
      modelCalls: 0,
      cost: 0,
      breakdown: { byAgent: {}, byStep: {} },
      session: { usage: { inputTokens: 0, outputTokens: 0 }, modelCalls: 0, cost: 0, unpricedModelCalls: 0 },
      guardrail: { name: 'on_topic', stage: 'input', reason: 'off-topic' },
    };
    const decoded = decodeJobResult('s', JSON.parse(encodeJobResult(blocked)));
    expect(decoded.status).toBe('blocked');
    expect(decoded.guardrail).toEqual({ name: 'on_topic', stage: 'input', reason: 'off-topic' });
  });
});
