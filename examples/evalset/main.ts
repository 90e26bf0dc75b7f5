/**
 * An evalset run in process: each case in its own session, judged on its tool calls, plan, answer,
 * status and latency, then printed as a terminal report (and JUnit for CI).
 * Run: pnpm build && npx tsx examples/evalset/main.ts
 */
import { renderJUnit, renderTerminal, runEval } from '@replan/eval';
import { evalSet, makeRunner } from './weather.eval.js';

const report = await runEval({ set: evalSet, makeRunner, concurrency: 2, repeat: 2 });
console.log(renderTerminal(report));
console.log(`\nJUnit: ${renderJUnit(report).split('\n').length} lines (replan eval … --junit <path> writes it)`);
process.exitCode = report.pass ? 0 : 1;
