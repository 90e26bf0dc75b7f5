/**
 * The evalset as a Vitest test: the report's terminal text is the failure message.
 * Run: pnpm exec vitest run --project examples
 */
import { describe, expect, it } from 'vitest';
import { renderTerminal, runEval } from '@replan/eval';
import { evalSet, makeRunner } from './weather.eval.js';

describe('the weather agent', () => {
  it('passes its evalset', async () => {
    const report = await runEval({ set: evalSet, makeRunner, concurrency: 2 });
    expect(report.pass, renderTerminal(report, { color: false })).toBe(true);
  });
});
