/**
 * The demo's runners for the studio: `replan studio --store .replan/demo-sessions --runners
 * examples/demo/runners.ts` (what `pnpm studio` runs) loads this module and calls
 * `createRunners(store)` with the store it serves, so runs started or resumed in the page are
 * stored where the page reads.
 */
import { type ChatModel, Runner, type SessionStore } from '@replan/core';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { modelFromEnv } from '@replan/providers';
import { approvalRunner } from './approval-app.js';
import { scriptedBrain } from './scripted-brain.js';
import { calculator, searchDocs } from './tools.js';

export const DEMO_APP = 'replan-demo';

/**
 * The demo question's runner: `model`, by default the environment's real model (`modelFromEnv()`),
 * else the scripted one. `review`: the plan and the revisions that change it stop for a person's answer.
 */
export function demoRunner(
  store: SessionStore,
  model: ChatModel = modelFromEnv() ?? scriptedBrain(),
  options: { review?: boolean } = {},
): Runner {
  const review = options.review ? { review: { plan: true, replans: 'changed' as const } } : {};
  const agent = createPlanExecuteAgent({ model, tools: [calculator, searchDocs], maxIterations: 8, ...review });
  return new Runner({ agent, appName: DEMO_APP, sessionStore: store });
}

export function createRunners(store: SessionStore): Runner[] {
  return [demoRunner(store), approvalRunner(store)];
}
