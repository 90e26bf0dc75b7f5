import { describe, expect, it } from 'vitest';

// Listed so that a change to the public surface is a visible diff.
describe('public surface of @replan/eval', () => {
  it('exports the eval API and its errors', async () => {
    expect(Object.keys(await import('@replan/eval')).sort()).toEqual([
      'EvalInputError',
      'JUDGE_INSTRUCTION',
      'arg',
      'defineDomain',
      'defineEvalSet',
      'defineSuite',
      'readEvalCaseFile',
      'readRecordingFile',
      'renderJUnit',
      'renderMarkdown',
      'renderSuiteTable',
      'renderTerminal',
      'runEval',
      'runSuite',
      'sessionToEvalCase',
      'writeEvalCaseFiles',
    ]);
  });

  it('keeps the replan eval command apart, in @replan/eval/cli (for the replan CLI of @replan/studio)', async () => {
    expect(Object.keys(await import('@replan/eval/cli')).sort()).toEqual(['runEvalCli']);
  });
});
