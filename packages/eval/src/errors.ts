import { ReplanError } from '@replan/core';

/**
 * An eval set (or one of its cases) that cannot run: a missing name, a duplicate case name, a case
 * that expects nothing, a judge without a model. `problems` lists every problem found, each with
 * the place it is at (`cases[2].expect.answer`); the message says how to fix them.
 */
export class EvalSetError extends ReplanError {
  constructor(
    message: string,
    /** Each problem as `<where>: <what to fix>`. */
    readonly problems: readonly string[] = [],
  ) {
    super(message);
  }
}

/**
 * A `replan eval` command line or eval module the CLI cannot use (unknown flag, missing file, a
 * module that exports no eval set). The CLI prints the message and exits with code 2.
 */
export class EvalUsageError extends ReplanError {}

/** A stored recording or eval case file that is not one (`readEvalCaseFile`, `readRecordingFile`). */
export class EvalFileError extends ReplanError {}
