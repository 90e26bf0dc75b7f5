import { describe, expect, it } from 'vitest';

// Listed so that a change to the public surface is a visible diff.
describe('public surface of @replan/eval', () => {
  it('exports the eval API and its errors', async () => {
    expect(Object.keys(await import('@replan/eval')).sort()).toEqual([
      'EVAL_EXIT_CODES',
      'EVAL_FILE_SCHEMA_VERSION',
      'EVAL_USAGE',
      'EvalFileError',
      'EvalSetError',
      'EvalUsageError',
      'JUDGE_INSTRUCTION',
      'arg',
      'defineEvalSet',
      'readEvalCaseFile',
      'readRecordingFile',
      'renderJUnit',
      'renderMarkdown',
      'renderTerminal',
      'runEval',
      'runEvalCli',
      'sessionToEvalCase',
      'writeEvalCaseFiles',
    ]);
  });
});
