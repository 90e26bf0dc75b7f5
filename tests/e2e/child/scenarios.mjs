// @ts-check
/** The scenarios a child process can run, by name: the input that starts a run, and the agent. */
import { buildGrantAgent, GRANT_INPUT } from './grant-scenario.mjs';
import { buildGraphAgent, GRAPH } from './graph-scenario.mjs';
import { buildNestedAgent, NESTED_INPUT } from './nested-scenario.mjs';
import { buildAgent, LINEAR_SCENARIOS } from './plan-scenario.mjs';
import { buildReviewAgent, REVIEW_INPUT } from './review-scenario.mjs';

/**
 * @typedef {{ latencyMs: number, mark: (label: string) => void, log: ReturnType<typeof import('./effect-log.mjs').effectLog> }} BuildOptions
 * @typedef {{ input: string, build: (o: BuildOptions) => import('@replan/core').Agent }} ChildScenario
 */

/** @type {Record<'steps' | 'approval' | 'graph' | 'nested' | 'review-linear' | 'review-graph' | 'grants-linear' | 'grants-graph', ChildScenario>} */
export const SCENARIOS = {
  steps: { input: LINEAR_SCENARIOS.steps.input, build: (o) => buildAgent({ scenario: LINEAR_SCENARIOS.steps, ...o }) },
  approval: { input: LINEAR_SCENARIOS.approval.input, build: (o) => buildAgent({ scenario: LINEAR_SCENARIOS.approval, ...o }) },
  graph: { input: GRAPH.input, build: buildGraphAgent },
  nested: { input: NESTED_INPUT, build: buildNestedAgent },
  // The plan stops for review; the scripted models come from scriptPlanExecute.
  'review-linear': { input: REVIEW_INPUT, build: () => buildReviewAgent('linear') },
  'review-graph': { input: REVIEW_INPUT, build: () => buildReviewAgent('graph') },
  // Plan grants: the approved plan's first step pays Ann unasked; the second (paying Bob) asks.
  'grants-linear': { input: GRANT_INPUT, build: (o) => buildGrantAgent('linear', o) },
  'grants-graph': { input: GRANT_INPUT, build: (o) => buildGrantAgent('graph', o) },
};
