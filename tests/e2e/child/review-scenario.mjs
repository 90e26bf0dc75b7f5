// @ts-check
/**
 * A plan–execute agent whose plan stops for a person's review (`review: { plan: true }`), linear or
 * graph, scripted with `scriptPlanExecute` (by who calls, so a new process picks the script up
 * where the session is). The edit and the answers the tests give are here, so the parent and the
 * children agree on them.
 */
import { createPlanExecuteAgent } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';

/** @typedef {'linear' | 'graph'} ReviewMode */

export const REVIEW_INPUT = 'Write the text.';

/** Each mode's script (the plan under review, every step the tests may run) and the edit they give. */
export const REVIEW = {
  linear: {
    script: {
      plan: { steps: ['draft', 'polish'] },
      steps: { draft: 'a draft', polish: 'polished', 'only step': 'done in one' },
      answer: 'the text',
    },
    edit: { steps: ['only step'] },
  },
  graph: {
    script: {
      plan: {
        steps: [
          { id: 'a', task: 'A', dependsOn: [] },
          { id: 'b', task: 'B', dependsOn: [] },
        ],
      },
      steps: { a: 'A done', b: 'B done', c: 'C done' },
      answer: 'both',
    },
    edit: { steps: [{ id: 'c', task: 'C', dependsOn: [] }] },
  },
};

/**
 * The agent in `mode`, its plan reviewed.
 * @param {ReviewMode} mode
 */
export function buildReviewAgent(mode) {
  /** @type {import('@replan/planexecute/testing').PlanExecuteScript} */
  const script = REVIEW[mode].script;
  const { model } = scriptPlanExecute(script);
  return createPlanExecuteAgent({ model, mode, review: { plan: true } });
}
