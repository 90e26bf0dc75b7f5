import { neutraliseMarkers, quotedBlock, quotePreamble, quoteValue } from '@replan/core/agent-kit';
import type { InvocationContext, Message } from '@replan/core';
import type { PlanExecuteKeys } from '../base/session-keys.js';
import { planReviewKeys } from './review-keys.js';

/** What a rejection stores under `PlanFeedback` until the next plan is approved. */
export interface PlanFeedback {
  /** The plan the reviewer rejected. */
  readonly plan: unknown;
  /** Their feedback. */
  readonly feedback: string;
  /** The invocation it was given in: a later run's planner never reads it. */
  readonly invocationId: string;
}

/**
 * The message that tells the planner or replanner why its last plan was rejected, added after its
 * input while a rejection is pending (none otherwise). The feedback is the reviewer's instruction,
 * stated as such; the rejected plan (which may echo tool output) is quoted as data.
 */
export function reviewFeedbackMessages(ctx: InvocationContext, keys: PlanExecuteKeys): Message[] {
  const pending = ctx.state[planReviewKeys(keys).PlanFeedback] as PlanFeedback | null | undefined;
  if (!pending || typeof pending.feedback !== 'string' || pending.invocationId !== ctx.invocationId) return [];
  const text = [
    'A person reviewing the plan rejected your last plan. Write a new plan that follows their feedback.',
    `Their feedback: ${neutraliseMarkers(pending.feedback)}`,
    quotedBlock([quoteValue(JSON.stringify(pending.plan) ?? '')], quotePreamble('The rejected plan')),
  ].join('\n\n');
  return [{ role: 'user', content: [{ type: 'text', text }] }];
}
