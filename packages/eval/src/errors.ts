import { ReplanError } from '@replan/core';

/**
 * What `@replan/eval` cannot use:
 * - `set`: an eval set, suite or one of their cases that cannot run (a missing name, a duplicate
 *   case name, a case that expects nothing, a judge without a model). `problems` lists every problem
 *   found, each with the place it is at (`cases[2].expect.answer`); the message says how to fix them;
 * - `usage`: a `replan eval` command line or eval module the CLI cannot use (unknown flag, missing
 *   file, a module that exports no eval set). The CLI prints the message and exits with code 2;
 * - `file`: a stored recording or eval case file that is not one (`readEvalCaseFile`, `readRecordingFile`).
 */
export type EvalInputErrorKind = 'set' | 'usage' | 'file';

/** An eval set, command line or file that cannot be used; `kind` says which. The one error class of `@replan/eval`. */
export class EvalInputError extends ReplanError {
  constructor(
    readonly kind: EvalInputErrorKind,
    message: string,
    /** Each problem as `<where>: <what to fix>` (`kind: 'set'`). */
    readonly problems: readonly string[] = [],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
