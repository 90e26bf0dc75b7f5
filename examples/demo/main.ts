/**
 * `pnpm demo`: a plan–execute–replan run over real local tools (a calculator and an in-memory
 * document search), printed as a live tree. Offline with a scripted model by default; with a
 * real model when OPENAI_API_KEY or OPENAI_BASE_URL is set (`modelFromEnv()` of @replan/providers).
 */
import { Runner } from '@replan/core';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { modelFromEnv } from '@replan/providers';
import { renderRun } from '@replan/planexecute/terminal';
import { DEMO_SESSIONS_DIR, demoStore } from './demo-store.js';
import { modelLine } from './model-line.js';
import { scriptedBrain } from './scripted-brain.js';
import { calculator, searchDocs } from './tools.js';

const QUESTION =
  'How much would our support team pay per year on the Team plan, counting the people who join in March? ' +
  'Use our documents and check for billing discounts.';

async function main(): Promise<number> {
  // A real model when OPENAI_API_KEY / OPENAI_BASE_URL are set (REPLAN_MODEL names it), else offline.
  const live = modelFromEnv();
  const model = live ?? scriptedBrain();
  console.log(`${modelLine(model, live !== undefined)}\n`);
  const agent = createPlanExecuteAgent({ model, tools: [calculator, searchDocs], maxIterations: 8 });
  // Sessions go to a FileSessionStore directory, so `pnpm studio` can show this run afterwards.
  const runner = new Runner({ agent, appName: 'replan-demo', sessionStore: demoStore() });
  const run = runner.run({ userId: 'demo', input: QUESTION, stream: true });
  // The scripted model makes its token counts up: the view says so.
  const result = await renderRun(run, { objective: QUESTION, syntheticUsage: model.id.startsWith('scripted') });
  console.log(`session ${result.sessionId} stored in ${DEMO_SESSIONS_DIR} — look at it with: pnpm studio`);
  return result.status === 'completed' ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
