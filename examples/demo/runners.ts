/**
 * The demo's runners for the studio: `replan studio --store .replan/demo-sessions --runners
 * examples/demo/runners.ts` (what `pnpm studio` runs) loads this module and calls
 * `createRunners(store)` with the store it serves, so runs started or resumed in the page are
 * stored where the page reads.
 */
import { Runner, type SessionStore } from '@replan/core';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { modelFromEnv } from '@replan/providers';
import { approvalRunner } from './approval-app.js';
import { scriptedBrain } from './scripted-brain.js';
import { calculator, searchDocs } from './tools.js';

export const DEMO_APP = 'replan-demo';

export function demoRunner(store: SessionStore): Runner {
  const model = modelFromEnv() ?? scriptedBrain();
  const agent = createPlanExecuteAgent({ model, tools: [calculator, searchDocs], maxIterations: 8 });
  return new Runner({ agent, appName: DEMO_APP, sessionStore: store });
}

export function createRunners(store: SessionStore): Runner[] {
  return [demoRunner(store), approvalRunner(store)];
}
