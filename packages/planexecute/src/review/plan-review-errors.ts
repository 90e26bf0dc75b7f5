import { ReplanError, ResumeError } from '@replan/core';
import { stepsOf, stepText } from '../base/plan-schema.js';

/**
 * An answer to a `plan_review` interrupt that `resume` refused: not a `PlanReviewAnswer`, or an
 * `{ edit }` whose plan does not fit the plan schema (or, in graph mode, is not a valid graph).
 * A `ResumeError` of kind `invalid_value`, like every refused resume value: nothing was stored or
 * run; the review stays open for a valid answer.
 */
export const invalidPlanReviewAnswer = (interruptId: string, problem: string): ResumeError =>
  ResumeError.invalidValue(interruptId, `it is a plan review, and ${problem}`);

/**
 * The replanner issued the same plan `stalls` times in a row without a newly finished step
 * (`maxStalls`), and no review was configured to steer it: the run ends `failed` with this error.
 */
export class PlanStalledError extends ReplanError {
  constructor(
    readonly agentName: string,
    /** The plan it kept issuing. */
    readonly plan: unknown,
    readonly stalls: number,
  ) {
    const steps = stepsOf(plan).map(stepText);
    super(
      `Agent "${agentName}" issued the same plan ${stalls} times in a row without a newly finished step: ` +
        `${steps.length ? steps.map((s) => JSON.stringify(s)).join(', ') : '(no steps)'}. ` +
        'Give the executor what the step needs (tools, instructions), turn on review ({ review: { plan: true } }) to steer the plan, or raise maxStalls.',
    );
  }
}
