/**
 * `pnpm demo`: a plan–execute–replan run over real local tools (a calculator and an in-memory
 * document search), printed as a live tree. Offline with a scripted model by default; with a
 * real model when OPENAI_API_KEY or OPENAI_BASE_URL is set (`modelFromEnv()` of @replan/providers).
 * `pnpm demo --review`: the plan (and a revision that changes it) waits for your answer in the
 * terminal — approve, edit or reject — and the run resumes with it.
 */
import type { RunResult } from '@replan/core';
import { PLAN_REVIEW } from '@replan/planexecute';
import { modelFromEnv } from '@replan/providers';
import { renderRun } from '@replan/planexecute/terminal';
import { DEMO_SESSIONS_DIR, demoStore } from './demo-store.js';
import { modelLine } from './model-line.js';
import { askReview, lineAsker, ReviewInputClosedError } from './review-prompt.js';
import { demoRunner } from './runners.js';
import { scriptedBrain } from './scripted-brain.js';

const QUESTION =
  'How much would our support team pay per year on the Team plan, counting the people who join in March? ' +
  'Use our documents and check for billing discounts.';

async function main(): Promise<number> {
  // A real model when OPENAI_API_KEY / OPENAI_BASE_URL are set (REPLAN_MODEL names it), else offline.
  const live = modelFromEnv();
  const model = live ?? scriptedBrain();
  console.log(`${modelLine(model, live !== undefined)}\n`);
  const review = process.argv.includes('--review') && reviewInTerminal();
  // Sessions go to a FileSessionStore directory, so `pnpm studio` can show this run afterwards.
  const runner = demoRunner(demoStore(), model, { review });
  // The scripted model makes its token counts up: the view says so.
  const view = { syntheticUsage: model.id.startsWith('scripted') };
  let result = await renderRun(runner.run({ userId: 'demo', input: QUESTION, stream: true }), { objective: QUESTION, ...view });
  const terminal = review ? lineAsker(process.stdin, process.stdout) : undefined;
  try {
    // Each plan review is answered here, then the run resumes (and may stop at the next review).
    for (let open = reviewIn(result); terminal && open; open = reviewIn(result)) {
      const answer = await askReview(terminal.ask);
      const values = { [open.id]: answer };
      result = await renderRun(runner.resume({ userId: 'demo', sessionId: result.sessionId, values, stream: true }), view);
    }
  } catch (error) {
    if (!(error instanceof ReviewInputClosedError)) throw error;
    console.log(`\n${error.message}`);
  } finally {
    terminal?.close();
  }
  console.log(`session ${result.sessionId} stored in ${DEMO_SESSIONS_DIR} — look at it with: pnpm studio`);
  return result.status === 'completed' ? 0 : 1;
}

/** True when stdin is a terminal to answer in; else says why the review is skipped. */
function reviewInTerminal(): boolean {
  if (process.stdin.isTTY) return true;
  console.log('--review asks in the terminal, but stdin is not a terminal: running without plan review.\n');
  return false;
}

const reviewIn = (result: RunResult) =>
  result.status === 'interrupted' ? result.interrupts.find((i) => i.reason === PLAN_REVIEW) : undefined;

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
