import { describe, expect, it } from 'vitest';

// Listed so that a change to the public surface is a visible diff.
describe('public surface of @replan/eval', () => {
  it('exports the eval API and its errors', async () => {
    expect(Object.keys(await import('@replan/eval')).sort()).toEqual([
      'EVAL_FILE_SCHEMA_VERSION',
      'EvalInputError',
      'JUDGE_INSTRUCTION',
      'SUITE_AGENT_KINDS',
      'arg',
      'builtinSuites',
      'defineDomain',
      'defineEvalSet',
      'defineSuite',
      'oracleModel',
      'readEvalCaseFile',
      'readRecordingFile',
      'renderJUnit',
      'renderMarkdown',
      'renderSuiteMarkdown',
      'renderSuiteTable',
      'renderTerminal',
      'runEval',
      'runSuite',
      'sessionToEvalCase',
      'suiteSessionId',
      'writeEvalCaseFiles',
    ]);
  });

  it('keeps the replan eval command apart, in @replan/eval/cli (for the replan CLI of @replan/studio)', async () => {
    expect(Object.keys(await import('@replan/eval/cli')).sort()).toEqual(['EVAL_EXIT_CODES', 'EVAL_USAGE', 'runEvalCli']);
  });
});
