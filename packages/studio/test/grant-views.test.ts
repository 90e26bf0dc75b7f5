import type { AgentEvent } from '@replan/core';
import { describe, expect, it } from 'vitest';
import { eventRow, eventView } from '../src/view/event-views.js';

/** A tool result event as plan–execute stores one its approved plan granted (`review.grants`). */
const result = (meta?: Record<string, unknown>): AgentEvent => ({
  id: 'e1',
  invocationId: 'i1',
  author: 'executor',
  path: 'plan_execute/execute_replan/executor',
  branch: 'executor',
  timestamp: 0,
  message: { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'p1', name: 'pay', output: 'paid ann' }] },
  ...(meta ? { meta } : {}),
});

describe('a granted tool call in the studio views', () => {
  it('names the plan review that granted it in the timeline row and the detail', () => {
    const granted = result({ grantedBy: 'ev-9:plan_review' });
    expect(eventRow(granted, 3).summary).toBe('granted by plan review ev-9:plan_review · pay → paid ann');
    expect(eventView(granted, 3).grantedBy).toBe('ev-9:plan_review');
  });

  it('says nothing of a grant for a call that was not granted', () => {
    expect(eventRow(result(), 3).summary).toBe('pay → paid ann');
    expect(eventView(result(), 3).grantedBy).toBeUndefined();
  });
});
